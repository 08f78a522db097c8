// The site's service worker. Correspondence notifications (push and notificationclick) live
// in their own file.
importScripts("/static/sw-push.js");
