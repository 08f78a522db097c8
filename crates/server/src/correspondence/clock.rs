//! Correspondence clocks as pure functions of time: when a move is due (weekends skipped at
//! "no weekends" tables), when reminders go out, and whether a vacation day saves a move that
//! would otherwise time out. Time is seconds since the Unix epoch, UTC, and comes from the
//! server's one [`Clock`] (`Config::clock`), which tests can move.

pub use crate::clock::Clock;

/// Seconds in a day.
pub const DAY: i64 = 86_400;
/// Seconds in an hour.
pub const HOUR: i64 = 3_600;

/// The times per move a correspondence table may have: 6 hours, 1, 2, 3, 5 or 7 days.
pub const PER_MOVE: [i64; 6] = [6 * HOUR, DAY, 2 * DAY, 3 * DAY, 5 * DAY, 7 * DAY];

/// Reminders before a timeout: 24 hours and 1 hour before (kind, seconds before).
pub const REMINDERS: [(&str, i64); 2] = [("remind24", DAY), ("remind1", HOUR)];

/// The day of the week of a time: 0 is Monday, 5 Saturday, 6 Sunday (UTC). The epoch was a
/// Thursday.
#[must_use]
pub const fn weekday(t: i64) -> i64 {
    (t.div_euclid(DAY) + 3).rem_euclid(7)
}

/// Whether a time falls on a Saturday or Sunday (UTC).
#[must_use]
pub const fn is_weekend(t: i64) -> bool {
    weekday(t) >= 5
}

/// When a move started at `start` with `per_move` seconds is due. At a "no weekends" table the
/// clock stands still from Saturday 00:00 to Monday 00:00 UTC: only weekday seconds count.
#[must_use]
pub fn deadline(start: i64, per_move: i64, no_weekends: bool) -> i64 {
    if !no_weekends {
        return start + per_move;
    }
    let mut t = start;
    let mut left = per_move;
    loop {
        let day = t.div_euclid(DAY);
        let wd = weekday(t);
        if wd >= 5 {
            // To Monday 00:00.
            t = (day + (7 - wd)) * DAY;
            continue;
        }
        // Weekday seconds until Saturday 00:00.
        let saturday = (day + (5 - wd)) * DAY;
        if t + left <= saturday {
            return t + left;
        }
        left -= saturday - t;
        t = saturday;
    }
}

/// When the reminders of a move due at `due`, started at `start`, go out: those still ahead of
/// the start (a 6-hour move gets the 1-hour reminder only). With no weekends, "24 hours before"
/// counts clock time, so it falls on the Friday before a Monday deadline.
#[must_use]
pub fn reminders(
    start: i64,
    due: i64,
    per_move: i64,
    no_weekends: bool,
) -> Vec<(&'static str, i64)> {
    REMINDERS
        .iter()
        .filter(|(_, before)| *before < per_move)
        .map(|&(kind, before)| (kind, before_deadline(start, due, before, no_weekends)))
        .filter(|&(_, at)| at > start)
        .collect()
}

/// The time at which `before` seconds of the clock are left before `due`.
fn before_deadline(start: i64, due: i64, before: i64, no_weekends: bool) -> i64 {
    if !no_weekends {
        return due - before;
    }
    // The latest time t with deadline(t, before) == due: walk back over weekday seconds.
    let mut t = due;
    let mut left = before;
    while left > 0 && t > start {
        let prev = t - 1;
        if is_weekend(prev) {
            // Back to Saturday 00:00 of that weekend.
            let day = prev.div_euclid(DAY);
            t = (day - (weekday(prev) - 5)) * DAY;
            continue;
        }
        let day_start = prev.div_euclid(DAY) * DAY;
        let step = (t - day_start).min(left);
        t -= step;
        left -= step;
    }
    t
}

/// What happens when a move's time runs out.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum AtDeadline {
    /// A vacation day is used: the move is due a day later (weekends still skipped).
    Vacation {
        /// The new deadline.
        due: i64,
    },
    /// The player times out.
    Timeout,
}

/// At a deadline: a vacation day if the table allows them and the player has one left this
/// year (`used` of `allowance`), else a timeout. Vacation days are used only here, when the
/// move would otherwise time out.
#[must_use]
pub fn at_deadline(
    due: i64,
    vacation: bool,
    used: u32,
    allowance: u32,
    no_weekends: bool,
) -> AtDeadline {
    if vacation && used < allowance {
        AtDeadline::Vacation {
            due: deadline(due, DAY, no_weekends),
        }
    } else {
        AtDeadline::Timeout
    }
}

/// The calendar year (UTC) of a time, for the yearly vacation allowance.
#[must_use]
pub fn year(t: i64) -> i64 {
    // Civil-from-days (Howard Hinnant's algorithm).
    let z = t.div_euclid(DAY) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    yoe + era * 400 + i64::from(month <= 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Monday 2026-11-23 00:00 UTC.
    const MONDAY: i64 = 1_795_392_000;

    #[test]
    fn the_calendar_is_right() {
        assert_eq!(weekday(MONDAY), 0);
        assert_eq!(weekday(MONDAY + 5 * DAY), 5);
        assert_eq!(weekday(MONDAY + 6 * DAY + DAY - 1), 6);
        assert_eq!(weekday(0), 3);
        assert_eq!(year(MONDAY), 2026);
        assert_eq!(year(1_767_225_599), 2025);
        assert_eq!(year(1_767_225_600), 2026);
        assert_eq!(year(951_782_400), 2000); // 2000-02-29
    }

    #[test]
    fn weekends_are_skipped_only_at_no_weekend_tables() {
        let friday_noon = MONDAY + 4 * DAY + 12 * HOUR;
        // One day from Friday noon: Saturday noon, or Monday noon without weekends.
        assert_eq!(deadline(friday_noon, DAY, false), friday_noon + DAY);
        assert_eq!(deadline(friday_noon, DAY, true), friday_noon + 3 * DAY);
        // A move started on a Saturday starts counting on Monday.
        let saturday = MONDAY + 5 * DAY + 7 * HOUR;
        assert_eq!(
            deadline(saturday, 6 * HOUR, true),
            MONDAY + 7 * DAY + 6 * HOUR
        );
        // Seven days of weekdays from a Monday: the Wednesday of the week after next.
        assert_eq!(deadline(MONDAY, 7 * DAY, true), MONDAY + 9 * DAY);
        // Within the week nothing changes.
        assert_eq!(deadline(MONDAY, 2 * DAY, true), MONDAY + 2 * DAY);
        // Exactly up to Saturday 00:00.
        assert_eq!(deadline(MONDAY, 5 * DAY, true), MONDAY + 5 * DAY);
    }

    #[test]
    fn reminders_fall_before_the_deadline_on_the_clock() {
        let r = reminders(MONDAY, MONDAY + 3 * DAY, 3 * DAY, false);
        assert_eq!(
            r,
            vec![
                ("remind24", MONDAY + 2 * DAY),
                ("remind1", MONDAY + 3 * DAY - HOUR)
            ]
        );
        // A 6-hour move: the 1-hour reminder only.
        let r = reminders(MONDAY, MONDAY + 6 * HOUR, 6 * HOUR, false);
        assert_eq!(r, vec![("remind1", MONDAY + 5 * HOUR)]);
        // No weekends, two days from Thursday 10:00: due Monday 10:00; 24 clock hours before
        // is Friday 10:00.
        let thursday = MONDAY + 3 * DAY + 10 * HOUR;
        let friday = thursday + DAY;
        let due = deadline(thursday, 2 * DAY, true);
        assert_eq!(due, MONDAY + 7 * DAY + 10 * HOUR);
        let r = reminders(thursday, due, 2 * DAY, true);
        assert_eq!(r[0], ("remind24", friday));
        assert_eq!(r[1], ("remind1", due - HOUR));
        // Every reminder leaves exactly its time on the clock.
        for (kind, at) in r {
            let before = REMINDERS.iter().find(|k| k.0 == kind).unwrap().1;
            assert_eq!(deadline(at, before, true), due);
        }
    }

    #[test]
    fn vacation_days_only_when_left_and_allowed() {
        let due = MONDAY + 4 * DAY + 20 * HOUR;
        assert_eq!(
            at_deadline(due, true, 0, 3, false),
            AtDeadline::Vacation { due: due + DAY }
        );
        assert_eq!(
            at_deadline(due, true, 2, 3, true),
            AtDeadline::Vacation { due: due + 3 * DAY }
        );
        assert_eq!(at_deadline(due, true, 3, 3, false), AtDeadline::Timeout);
        assert_eq!(at_deadline(due, false, 0, 3, false), AtDeadline::Timeout);
    }

    #[test]
    fn a_manual_clock_moves_only_by_hand() {
        let c = Clock::manual(MONDAY);
        assert_eq!(c.now(), MONDAY);
        c.advance(HOUR);
        assert_eq!(c.clone().now(), MONDAY + HOUR);
        c.set(5);
        assert_eq!(c.now(), 5);
        assert!(Clock::system().now() > MONDAY - 365 * DAY);
    }
}
