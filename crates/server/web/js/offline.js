// The offline page (shown by the service worker when the network is gone): back to the page
// the player wanted as soon as the connection returns.
window.addEventListener('online', () => location.reload());
