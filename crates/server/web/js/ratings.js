// Ratings where people see them: the Glicko-2 rating of registered players, fetched once per
// page from their profile and kept; callers redraw when it arrives.
import { api } from './api.js';

const known = new Map();

/**
 * The rating of `user` (a UserRef) if known now: a number, or null (a guest, not rated yet, or
 * still being fetched: `onReady` is called once it is in).
 */
export function ratingOf(user, onReady) {
  if (!user || !user.registered) return null;
  const k = known.get(user.id);
  if (k === undefined) {
    known.set(user.id, null);
    api.user(user.id).then((p) => {
      known.set(user.id, p.rating && p.rating.deviation < 350 ? Math.round(p.rating.rating) : null);
      if (known.get(user.id) != null && onReady) onReady();
    }).catch(() => {});
    return null;
  }
  return k;
}
