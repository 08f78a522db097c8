// Words for seats, actions and log lines.
import { tileWords } from './tiles.js';
import { armName } from './board.js';

export function seatName(seats, i) {
  const s = seats && seats[i];
  if (!s) return `seat ${i + 1}`;
  const o = s.occupant;
  if (o.kind === 'human') return o.user.bot ? `${o.user.name} (bot)` : o.user.name;
  if (o.kind === 'bot') return `${BOT_NAMES[i % BOT_NAMES.length]} (computer)`;
  if (o.kind === 'invite') return 'invited friend';
  return 'open seat';
}

/** Computer players' names, one per seat, so that three of them can be told apart. */
export const BOT_NAMES = ['Ada', 'Blaise', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Frances'];

/** A computer player's level in words. */
export function levelWords(level) {
  return { beginner: 'beginner', casual: 'casual player', club: 'club player', strong: 'strong player', master: 'master',
    random: 'beginner', greedy: 'casual player', neural: 'network player', pimc: 'strong player', expert: 'master' }[level] || level;
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
  partnerships: { false: 'every player for themselves', true: 'two teams, partners alternating around the table' },
  spinner: { first: 'the first double', none: 'none', all: 'every double' },
  sprouts: { 'after-both-sides': 'after both sides of the spinner are played', 'at-once': 'at once' },
  'no-double': { redeal: 'deal again', 'heaviest-tile': 'the heaviest tile leads', 'draw-until-double': 'draw until someone has a double', 'each-draws': 'everyone draws one tile, then the highest double (or heaviest tile) leads' },
  'next-lead': { winner: 'the winner of the hand', rotate: 'the next player in turn', 'first-lead': 'the first hand\'s rule (usually the highest double)' },
  'draw-one': { false: 'until a tile fits', true: 'one tile a turn, then play it or pass' },
  'muggins-call': { next: 'the next player', any: 'any opponent, in turn' },
  'blocked-tie': { share: 'the tied players share', nobody: 'nobody scores' },
  hands: { 0: 'no limit' },
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
  set: { 6: 'double-six (28 tiles)', 9: 'double-nine (55 tiles)', 12: 'double-twelve (91 tiles)' },
  'first-lead': {
    'highest-double': 'the highest double, which must be led',
    'highest-double-any': 'the holder of the highest double, with any tile',
    lot: 'a player drawn by lot, with any tile',
    'top-double': 'the holder of the set\'s top double, which must be led',
  },
  'cross-first': { false: 'no', true: 'yes: the first double\'s four sides are filled before any line grows' },
};

/** The presets by their games' names (the keys stay the presets' names). */
export const PRESET_WORDS = {
  'five-up': 'Five Up',
  'all-fives': 'All Fives (first lead by lot)',
  'pagat-five-up': 'Five Up, every double spinning, lead by lot',
  fives: 'Tournament Fives',
  muggins: 'Muggins (no spinner)',
  cross: 'Cross (every double spins)',
  'fives-and-threes': 'Fives and Threes',
  draw: 'Draw game',
  block: 'Block game',
  'cross-dominoes': 'Cross Dominoes',
  cribbage: 'Five Up on a cribbage board',
  'party-twelve': 'Party game, double-twelve (5 to 8 players)',
};

export function presetWords(name) {
  return PRESET_WORDS[name] || name;
}

/** A set in words: "double-nine (55 tiles)". */
export function setWords(set) {
  return valueWords('set', set ?? 6);
}

/** Tiles in the set whose highest pip is `set`. */
export function setSize(set) {
  return ((set + 1) * (set + 2)) / 2;
}

/** The most players a set deals three tiles each to (at most eight), as the engine. */
export function maxPlayers(set) {
  return Math.min(8, Math.floor(setSize(set) / 3));
}

/** The largest hand a set allows for `players`. */
export function maxHand(set, players) {
  return Math.floor(setSize(set) / Math.max(1, players));
}

/**
 * What makes a table's rules impossible, in plain words (the engine's checks, for the choices
 * the new-table form offers), or '' when nothing does.
 */
export function formProblems(r) {
  const set = r.set ?? 6;
  const size = setSize(set);
  if (r.players > maxPlayers(set)) return `The ${setWords(set)} deals three tiles each to at most ${maxPlayers(set)} players.`;
  if (r.partnerships && r.players !== 4 && r.players !== 6) return `Partners need 4 or 6 players (two teams, partners sitting opposite): choose 4 or 6 players, or every player for themselves.`;
  const most = maxHand(set, r.players);
  if (!(r.hand_size >= 3 && r.hand_size <= most)) return `${r.hand_size} tiles each for ${r.players} players cannot be dealt from the ${setWords(set)}: choose 3 to ${most} tiles each${set < 12 ? ', or a bigger set' : ''}.`;
  if (r.cross_first && r.spinner === 'none') return 'Cross first needs a spinner (the first double is the cross): choose the first double or every double as the spinner.';
  if (!(r.target >= 50 && r.target <= 1000) && !(r.target === 61)) return `A target of ${r.target} is out of range: choose 50 to 1000 points (or 61 on the cribbage scale).`;
  if (r.voluntary_draw && !r.drawing) return 'Drawing when a tile fits needs drawing from the boneyard: allow drawing, or draw only when no tile fits.';
  if (r.manual_scoring && r.play_scoring === 'none') return 'Scoring by hand needs points during play: choose multiples of five (or of five and three).';
  if (r.award === 'subtract-own' && r.play_scoring === 'none') return 'With no points during play and each side losing its own pips, no score could ever rise: choose another award or points during play.';
  if (size - r.players * r.hand_size < 0) return 'Not enough tiles for these hands.';
  return '';
}

/**
 * Who leads the hand and why, in words: the lot, the tile shown for the lead (`shown`, the
 * view's `shown_tile`), a double drawn, or a free lead.
 */
export function leadWords(seats, leader, leadKind, shown, rules) {
  const who = seatName(seats, leader);
  const first = (rules && rules.first_lead) || 'highest-double';
  switch (leadKind) {
    case 'lot': return `${who} was chosen by lot to lead, with any tile`;
    case 'highest-double':
      if (!shown) return `${who} leads`;
      if (first === 'highest-double-any') return `${who} holds ${shown}, the highest double dealt, and leads with any tile`;
      if (first === 'top-double') return `${who} holds ${shown}, the set's top double, and must lead it`;
      return `${who} holds ${shown}, the highest double dealt, and must lead it`;
    case 'heaviest-tile': return `Nobody holds a double: ${who} holds the heaviest tile${shown ? `, ${shown},` : ''} and must lead it`;
    case 'draw-until-double': return `${who} drew a double and leads it`;
    default: return `${who} leads, with any tile`;
  }
}

/** A message of the server about rules, with any `key=value` it names said in words. */
export function plainRulesWords(message) {
  return String(message || '').replace(/\b([a-z][a-z-]*)=([a-z0-9-]+)/g, (_, k, v) => `“${valueWords(k, v)}”`);
}

/** An option's value in words. */
export function valueWords(key, value) {
  const w = VALUE_WORDS[key];
  return (w && w[String(value)]) || String(value);
}

/** Every rule of a table in plain words, one line each. */
export function rulesLines(r) {
  const yes = (b) => (b ? 'yes' : 'no');
  return [
    `${r.players} players${r.partnerships ? `, in two teams of ${r.players / 2}, partners alternating around the table` : ', each for themselves'}`,
    `Dominoes: ${setWords(r.set ?? 6)}`,
    r.hand_limit === 1 ? 'One hand: the higher score wins; a tie plays another hand'
      : `First to ${r.target} points wins${r.game_end === 'finish-hand' ? ' (the hand is finished first)' : ''}${r.exact_target ? ', exactly' : ''}`,
    `${r.hand_size} tiles each`,
    `Spinner: ${valueWords('spinner', r.spinner)}${r.spinner !== 'none' ? `; its sprouts open ${valueWords('sprouts', r.sprouts)}` : ''}`,
    `Points during play: ${valueWords('play-scoring', r.play_scoring)}`,
    `After the hand the winner scores ${valueWords('award', r.award)}${r.doubles_count_one_half ? ', doubles counting one half' : ''}`,
    `Drawing: ${r.drawing ? `from the boneyard, ${valueWords('voluntary-draw', r.voluntary_draw)}${r.draw_one ? ', one tile a turn (pass if it does not fit)' : ''}${r.boneyard_keep ? `, ${valueWords('boneyard-keep', r.boneyard_keep)} left in it` : ''}` : 'none (block game)'}`,
    `The first hand is led by ${valueWords('first-lead', r.first_lead || 'highest-double')}`,
    `If nobody holds a double: ${valueWords('no-double', r.no_double)}; the next hand is led by ${valueWords('next-lead', r.next_lead)}`,
    r.cross_first ? 'Cross first: the first double\'s four sides are filled before any line grows' : null,
    r.cribbage_scale ? 'Scores on the cribbage scale (in fives)' : null,
    `Scoring by hand (Muggins): ${yes(r.manual_scoring)}${r.manual_scoring ? `: claim your points; a missed or wrong claim can be called by ${valueWords('muggins-call', r.muggins_call || 'next')}` : ''}`,
    r.blocked_tie === 'nobody' ? 'A tie for lowest in a blocked hand scores nothing' : null,
    r.hand_limit > 1 ? `The game ends after ${r.hand_limit} hands at the latest: the highest score wins` : null,
  ].filter(Boolean);
}

/**
 * A canonical options string ("players=3 partnerships=false hand=7 target=100 ...") in a few
 * words, as `shortRules` says a rules object.
 */
export function optionsWords(options) {
  const kv = Object.fromEntries(String(options || '').split(/\s+/).filter((x) => x.includes('=')).map((x) => x.split('=')));
  const r = {
    players: Number(kv.players || 0), partnerships: kv.partnerships === 'true', target: kv.target, spinner: kv.spinner, set: Number(kv.set || 6),
    play_scoring: kv['play-scoring'], manual_scoring: kv.manual === 'true',
  };
  return r.players ? shortRules(r) : String(options || '');
}

/** The rules in a few words: players, partnerships, target (or one hand: a duplicate board). */
export function shortRules(r) {
  return `${r.players} players${r.partnerships ? ' in partnerships' : ''}${r.set && r.set !== 6 ? ` · ${setWords(r.set).replace(/ \(.*/, '')}` : ''} · ${r.hand_limit === 1 ? 'one hand' : `to ${r.target}`}${r.spinner === 'none' ? ' · no spinner' : r.spinner === 'all' ? ' · every double spins' : ''}${r.play_scoring === 'none' ? ' · no play scoring' : r.play_scoring === 'fives-and-threes' ? ' · fives and threes' : ''}${r.manual_scoring ? ' · scored by hand (Muggins)' : ''}`;
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

/**
 * The preset's rules for `players` on `set`: its rules for that many players, with the set and
 * the hand size the engine gives the preset on that set (`hands` of the server's config).
 */
export function presetRulesFor(p, players, set) {
  const r = p.rules[players - 2] || p.rules[0];
  if ((p.set ?? 6) === set) return r;
  const hands = (p.hands || []).find((x) => x.set === set);
  return { ...r, set, hand_size: hands ? hands.hand_size[players - 2] : r.hand_size };
}

/** The options string of the form's choices: the preset, the players, the set if not its own. */
export function formOptions(p, players, set, options, chosen) {
  const base = optionsString(p.name, players, presetRulesFor(p, players, set), options.filter((o) => o.key !== 'set'), chosen);
  if (set === (p.set ?? 6)) return base;
  const [name, n, ...rest] = base.split(' ');
  return [name, n, `set=${set}`, ...rest].join(' ');
}

/**
 * The game a table plays, by its preset's name ("Cross Dominoes"): the preset whose rules for
 * that many players on that set are the table's; a table with other options is "... with its
 * own rules" after the closest preset (the target and the hand limit are not counted). `presets`: the server's config (null while it loads).
 */
export function gameName(rules, presets) {
  if (!presets || !presets.length || !rules) return 'Dominoes';
  const differences = (p) => {
    const want = presetRulesFor(p, rules.players, rules.set ?? 6);
    // The target and a limit of hands are the game's length: a game to 50, or a duplicate
    // board's one hand, is still Five Up.
    return Object.keys(want).filter((k) => k !== 'target' && k !== 'hand_limit' && JSON.stringify(want[k]) !== JSON.stringify(rules[k])).length;
  };
  let best = null; let bestN = Infinity;
  for (const p of presets) {
    const n = differences(p);
    if (n < bestN) { best = p; bestN = n; }
  }
  const name = presetWords(best.name).replace(/ \(.*\)$/, '');
  return bestN === 0 ? name : `${name}, with its own rules`;
}

/** Whether computer help (hints) is given at a table, in words, for those about to play. */
export function helpWords(t) {
  if (t.hints_allowed) return 'Hints allowed: a casual game, never rated.';
  if (t.counts) return 'Computer help is off: this game counts.';
  return 'Hints are given while the game is not rated; with registered players on two sides it is rated and computer help is off.';
}

/** Time left in words: "2 days 3 h", "5 h 10 min", "12 min". */
export function timeLeft(secs) {
  if (secs == null) return '';
  const d = Math.floor(secs / 86400);
  const hrs = Math.floor((secs % 86400) / 3600);
  const min = Math.floor((secs % 3600) / 60);
  if (d) return `${d} day${d === 1 ? '' : 's'} ${hrs} h`;
  if (hrs) return `${hrs} h ${min} min`;
  return `${min} min`;
}

/** A deadline (seconds since the epoch) as a date and time of the reader's time zone: "Thu 26 Nov, 09:00". */
export function dueWords(at) {
  return new Date(at * 1000).toLocaleString('en-GB', { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
}
