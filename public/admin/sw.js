// The panel's service worker (issue #26), registered by /admin with scope /admin/ only:
// it shows the reminders the server sends by Web Push and opens the contact when tapped.
// It caches nothing and handles no fetch: the panel always talks to the live server.

self.addEventListener('push', (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = {};
  }
  const title = typeof message.title === 'string' ? message.title : 'Recordatorio de contacto';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof message.body === 'string' ? message.body : '',
      tag: typeof message.tag === 'string' ? message.tag : undefined,
      lang: 'es-MX',
      icon: '/admin/icon-192.png',
      data: { url: typeof message.url === 'string' ? message.url : '/admin' },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url ?? '/admin', self.location.origin);
  // Only our own panel opens from a notification.
  if (target.origin !== self.location.origin || !target.pathname.startsWith('/admin')) return;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => client.url === target.href);
      return open ? open.focus() : self.clients.openWindow(target.href);
    }),
  );
});
