// The paper tally of a Five Up score: every 5 points is one line, two crossing lines make an
// X (10), and five X's make a full figure (50), drawn boxed. Pure; drawn by `tallySvg`.

/**
 * Split a score into figures: `{full, xs, line}` where `full` figures of 50, then `xs` X's of
 * 10 and `line` (0 or 1) single line of 5 make the score rounded down to a multiple of 5.
 * Negative scores (the subtract-own award) tally their absolute value.
 */
export function tallyParts(score) {
  const fives = Math.floor(Math.abs(score) / 5);
  return { full: Math.floor(fives / 10), xs: Math.floor((fives % 10) / 2), line: fives % 2, rest: Math.abs(score) % 5 };
}

/** Line segments `[x1, y1, x2, y2]` of a tally, in a box of figures 5 wide and 5 tall. */
export function tallySegments(score) {
  const { full, xs, line } = tallyParts(score);
  const segs = [];
  const boxes = [];
  // Five X's in a figure: four at the corners and the fifth in the middle.
  const POS = [[0.2, 0.2], [2.8, 0.2], [0.2, 2.8], [2.8, 2.8], [1.5, 1.5]];
  let x = 0;
  const drawX = (ox, oy) => { segs.push([ox, oy, ox + 2, oy + 2], [ox + 2, oy, ox, oy + 2]); };
  for (let f = 0; f < full; f += 1) {
    for (const [dx, dy] of POS) drawX(x + dx, dy);
    boxes.push([x, 0, 5, 5]);
    x += 6;
  }
  if (xs > 0 || line) {
    for (let i = 0; i < xs; i += 1) drawX(x + POS[i][0], POS[i][1]);
    if (line) segs.push([x + POS[xs][0], POS[xs][1], x + POS[xs][0] + 2, POS[xs][1] + 2]);
    x += 6;
  }
  return { segs, boxes, width: Math.max(x - 1, 1) };
}
