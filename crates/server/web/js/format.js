// Words for seats, actions and log lines.
import { tileWords } from './tiles.js';
import { armName } from './board.js';

export function seatName(seats, i) {
  const s = seats && seats[i];
  if (!s) return `seat ${i + 1}`;
  const o = s.occupant;
  if (o.kind === 'human') return o.user.name;
  if (o.kind === 'bot') return `${BOT_NAMES[i % BOT_NAMES.length]} (computer)`;
  if (o.kind === 'invite') return 'invited friend';
  return 'open seat';
}

/** Computer players' names, one per seat, so that three of them can be told apart. */
export const BOT_NAMES = ['Ada', 'Blaise', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Frances'];

/** A computer player's level in words. */
export function levelWords(level) {
  return { beginner: 'beginner', casual: 'casual player', club: 'club player', strong: 'strong player', master: 'master',
    random: 'beginner', greedy: 'casual player', pimc: 'strong player', expert: 'master' }[level] || level;
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

/** Each option's values in plain words, for the forms and the rules lists. */
export const VALUE_WORDS = {
  partnerships: { false: 'every player for themselves', true: 'partners sit opposite' },
  spinner: { first: 'the first double', none: 'none', all: 'every double' },
  sprouts: { 'after-both-sides': 'after both sides of the spinner are played', 'at-once': 'at once' },
  'no-double': { redeal: 'deal again', 'heaviest-tile': 'the heaviest tile leads', 'draw-until-double': 'draw until someone has a double' },
  'next-lead': { winner: 'the winner of the hand', rotate: 'the next player in turn' },
  drawing: { true: 'from the boneyard', false: 'no drawing (block game)' },
  'voluntary-draw': { false: 'only when no tile fits', true: 'allowed at any turn' },
  'boneyard-keep': { 0: 'none', 1: 'one', 2: 'two' },
  'play-scoring': { fives: 'multiples of five', 'fives-and-threes': 'multiples of five and of three', none: 'none' },
  award: { opponents: "the opponents' pips", difference: 'the difference in pips', 'subtract-own': "the opponents' pips less your own" },
  'doubles-one-half': { false: 'no', true: 'yes' },
  'game-end': { immediate: 'the moment a side reaches the target', 'finish-hand': 'at the end of the hand' },
  'exact-target': { false: 'no', true: 'yes (a score past the target does not count)' },
  cribbage: { false: 'no', true: 'yes (points counted in fives)' },
  manual: { false: 'no (the table counts)', true: 'yes: claim your points, or the others may call Muggins' },
};

/** An option's value in words. */
export function valueWords(key, value) {
  const w = VALUE_WORDS[key];
  return (w && w[String(value)]) || String(value);
}

/** Every rule of a table in plain words, one line each. */
export function rulesLines(r) {
  const yes = (b) => (b ? 'yes' : 'no');
  return [
    `${r.players} players${r.partnerships ? ', in two partnerships (partners sit opposite)' : ', each for themselves'}`,
    `First to ${r.target} points wins${r.game_end === 'finish-hand' ? ' (the hand is finished first)' : ''}${r.exact_target ? ', exactly' : ''}`,
    `${r.hand_size} tiles each`,
    `Spinner: ${valueWords('spinner', r.spinner)}${r.spinner !== 'none' ? `; its sprouts open ${valueWords('sprouts', r.sprouts)}` : ''}`,
    `Points during play: ${valueWords('play-scoring', r.play_scoring)}`,
    `After the hand the winner scores ${valueWords('award', r.award)}${r.doubles_count_one_half ? ', doubles counting one half' : ''}`,
    `Drawing: ${r.drawing ? `from the boneyard, ${valueWords('voluntary-draw', r.voluntary_draw)}${r.boneyard_keep ? `, ${valueWords('boneyard-keep', r.boneyard_keep)} left in it` : ''}` : 'none (block game)'}`,
    `If nobody holds a double: ${valueWords('no-double', r.no_double)}; the next hand is led by ${valueWords('next-lead', r.next_lead)}`,
    r.cribbage_scale ? 'Scores on the cribbage scale (in fives)' : null,
    `Scoring by hand (Muggins): ${yes(r.manual_scoring)}${r.manual_scoring ? ': claim your points; a missed or wrong claim can be called' : ''}`,
  ].filter(Boolean);
}

/**
 * A canonical options string ("players=3 partnerships=false hand=7 target=100 ...") in a few
 * words, as `shortRules` says a rules object.
 */
export function optionsWords(options) {
  const kv = Object.fromEntries(String(options || '').split(/\s+/).filter((x) => x.includes('=')).map((x) => x.split('=')));
  const r = {
    players: Number(kv.players || 0), partnerships: kv.partnerships === 'true', target: kv.target, spinner: kv.spinner,
    play_scoring: kv['play-scoring'], manual_scoring: kv.manual === 'true',
  };
  return r.players ? shortRules(r) : String(options || '');
}

/** The rules in a few words: players, partnerships, target. */
export function shortRules(r) {
  return `${r.players} players${r.partnerships ? ' in partnerships' : ''} · to ${r.target}${r.spinner === 'none' ? ' · no spinner' : r.spinner === 'all' ? ' · every double spins' : ''}${r.play_scoring === 'none' ? ' · no play scoring' : r.play_scoring === 'fives-and-threes' ? ' · fives and threes' : ''}${r.manual_scoring ? ' · scored by hand (Muggins)' : ''}`;
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
