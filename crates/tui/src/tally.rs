//! The score as players keep it on paper in the Fives games.
//!
//! Scores in Five Up move in fives, and the traditional tally keeps them in strokes: every
//! single line is 5 points, two lines crossed into an X are 10, and a finished figure is 50.
//! In a plain terminal font we draw:
//!
//! - `#` for each full figure of 50,
//! - `X` for each 10 of the rest,
//! - `|` for a remaining 5,
//! - and `+n` for points that are not a multiple of 5 (scales that count in ones, such as
//!   Fives and Threes or the cribbage scale).
//!
//! So 135 is `## X X X |` (two figures, three X, one line) and 0 is `-`. A negative score (the
//! subtract-own award) is drawn as the tally of its size after a minus sign.

/// The tally of `score`, symbols separated by spaces, full figures grouped.
#[must_use]
pub fn tally(score: i32) -> String {
    let mut out = String::new();
    let neg = score < 0;
    let mut v = score.unsigned_abs();
    if neg {
        out.push('-');
    }
    let figures = v / 50;
    v %= 50;
    for _ in 0..figures {
        out.push('#');
    }
    let mut parts: Vec<String> = Vec::new();
    if figures > 0 {
        parts.push(std::mem::take(&mut out));
    }
    for _ in 0..v / 10 {
        parts.push("X".into());
    }
    v %= 10;
    if v >= 5 {
        parts.push("|".into());
        v -= 5;
    }
    if v > 0 {
        parts.push(format!("+{v}"));
    }
    if parts.is_empty() {
        return "-".into();
    }
    let body = parts.join(" ");
    if neg && figures == 0 {
        format!("-{body}")
    } else {
        body
    }
}

/// The value a tally stands for (the inverse of [`tally`]), for checking and for readers.
#[must_use]
pub fn value(t: &str) -> i32 {
    let neg = t.starts_with('-') && t.len() > 1;
    let mut v = 0i32;
    for part in t.trim_start_matches('-').split(' ') {
        if let Some(n) = part.strip_prefix('+') {
            v += n.parse::<i32>().unwrap_or(0);
            continue;
        }
        for c in part.chars() {
            v += match c {
                '#' => 50,
                'X' => 10,
                '|' => 5,
                _ => 0,
            };
        }
    }
    if neg {
        -v
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn examples() {
        assert_eq!(tally(0), "-");
        assert_eq!(tally(5), "|");
        assert_eq!(tally(10), "X");
        assert_eq!(tally(15), "X |");
        assert_eq!(tally(50), "#");
        assert_eq!(tally(135), "## X X X |");
        assert_eq!(tally(253), "##### +3");
        assert_eq!(tally(-25), "-X X |");
        assert_eq!(tally(-60), "-# X");
    }

    #[test]
    fn tally_reads_back() {
        for s in -300..=1000 {
            assert_eq!(value(&tally(s)), s, "{s}: {}", tally(s));
        }
    }
}
