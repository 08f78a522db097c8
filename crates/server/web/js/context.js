// What the pages share with the app around them, without importing it: navigation (`go`), the
// signed-in player and the connection indicator (`session`). The app (app.js: the router and
// the header) fills in what they do when it starts and hands `session` to every page as `app`.
// Imports run one way: app.js loads the pages, the pages import shared modules such as this
// one, and nothing imports app.js.

// What going somewhere, a new player and the connection's state do: the app's, once given.
const hooks = { route: () => {}, user: () => {}, net: () => {} };

/** The app, at start: its router, and how the header shows the player and the connection. */
export function provide({ route, user, net }) {
  hooks.route = route;
  hooks.user = user;
  hooks.net = net;
}

/** The signed-in player (`null`: nobody yet), and what a page reports to the header. */
export const session = {
  user: null,
  setUser(user) {
    this.user = user;
    hooks.user(user);
  },
  setNet(ok) {
    hooks.net(ok);
  },
};

/** Go to a path inside the app without reloading. */
export function go(path) {
  history.pushState(null, '', path);
  hooks.route();
}
