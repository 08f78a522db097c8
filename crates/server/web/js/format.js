// Words for seats, actions and log lines.
import { tileWords } from './tiles.js';
import { armName } from './board.js';

export function seatName(seats, i) {
  const s = seats && seats[i];
  if (!s) return `seat ${i + 1}`;
  const o = s.occupant;
  if (o.kind === 'human') return o.user.name;
  if (o.kind === 'bot') return `${o.level} (computer)`;
  if (o.kind === 'invite') return '(invited)';
  return '(open)';
}

/** Names of the seats on a side. */
export function sideName(seats, sides, side) {
  const names = [];
  sides.forEach((sd, i) => { if (sd === side) names.push(seatName(seats, i)); });
  return names.join(' & ') || `side ${side + 1}`;
}

/** An action token in words: "5-0@W" -> "5-0 on west". */
export function actionWords(a) {
  if (a === 'D') return 'draw';
  if (a === 'P') return 'pass';
  if (a === 'M') return 'call Muggins';
  if (/^C\d+$/.test(a)) return `claim ${a.slice(1)}`;
  const [t, arm] = a.split('@');
  return arm ? `${t} on ${armName(arm)}` : `lead ${t}`;
}

/** The pips a player could not match (the engine sends a list of numbers), in words. */
export function pipList(ends) {
  const pips = Array.isArray(ends) ? ends : [...String(ends ?? '')];
  return pips.join(', ');
}

/** A history entry as a log line. */
export function entryWords(e, seats) {
  const who = seatName(seats, e.seat);
  switch (e.kind) {
    case 'play':
      return `${who} ${e.arm ? `played ${e.tile} on ${armName(e.arm)}` : `led ${e.tile}`}: count ${e.count}${e.points ? `, scores ${e.points}` : ''}`;
    case 'draw':
      return `${who} drew${e.tile ? ` ${e.tile}` : ' a tile'}${e.forced ? ` (no ${pipList(e.ends)})` : ''}`;
    case 'pass':
      return `${who} passed`;
    case 'lead-draw':
      return `${who} drew${e.tile ? ` ${e.tile}` : ' a tile'} looking for a double`;
    case 'claim':
      return `${who} claimed ${e.claimed}, scores ${e.points}`;
    case 'muggins':
      return `${who} called Muggins: ${e.points}`;
    default:
      return `${who}: ${e.kind}`;
  }
}

export { tileWords };

/** The rules in a few words: players, partnerships, target. */
export function shortRules(r) {
  return `${r.players} players${r.partnerships ? ' in partnerships' : ''} · to ${r.target}${r.spinner === 'none' ? ' · no spinner' : r.spinner === 'all' ? ' · every double spins' : ''}${r.play_scoring === 'none' ? ' · no play scoring' : r.play_scoring === 'fives-and-threes' ? ' · fives and threes' : ''}`;
}

/**
 * The options string of a new table: the preset, the players, then `key=value` for every
 * chosen option that differs from the preset's rules for that many players (`presetRules`).
 * `options`: the server's option list (key and Rules field); `chosen`: key -> value.
 */
export function optionsString(preset, players, presetRules, options, chosen) {
  const parts = [preset, `players=${players}`];
  for (const o of options) {
    if (o.key === 'players' || !(o.key in chosen)) continue;
    if (String(presetRules[o.field]) !== String(chosen[o.key])) parts.push(`${o.key}=${chosen[o.key]}`);
  }
  return parts.join(' ');
}

/**
 * The expert's value of a won game (`WIN_VALUE` in crates/bots/src/expert.rs). When a side is
 * near the target the expert plays to win the game: a hint's values and a review's losses are
 * then on this game scale (a won game counts +500, a lost one -500) rather than in points.
 */
export const WIN_VALUE = 500;

/** Whether the expert plays to win the game at these scores (as `playing_to_win` does). */
export function playingToWin(rules, scores) {
  if (rules.game_end !== 'immediate') return false;
  const margin = rules.cribbage_scale || rules.play_scoring === 'fives-and-threes' ? 10 : 50;
  return scores.some((sc) => sc >= rules.target - margin);
}

/** The unit of the expert's values at these scores, in words. */
export function valueUnit(rules, scores) {
  return playingToWin(rules, scores) ? `on the game scale (near the target a won game counts ${WIN_VALUE}, a lost one −${WIN_VALUE})` : 'in points';
}
