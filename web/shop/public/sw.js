// The shop's service worker: the app opens offline, and the last catalog and orders seen
// still show. Writes (placing an order) are never answered from here: they need the network.
// - the page itself and the hashed assets: kept at install and on first use;
// - GET /app/... answers: network first, the last answer when the network fails (marked
//   with x-surtido-offline so the app can say it is showing old data);
// - images: cache first (they never change behind a URL).
const SHELL = 'surtido-shell-v1';
const DATA = 'surtido-data-v1';
const IMAGES = 'surtido-images-v1';

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(SHELL).then((c) => c.addAll(['/shop/', '/shop/manifest.webmanifest', '/shop/icon.svg'])).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => ![SHELL, DATA, IMAGES].includes(n)).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

async function tellPages(message) {
  for (const page of await self.clients.matchAll({ type: 'window' })) page.postMessage(message);
}

async function networkFirst(request, cacheName, fallbackKey) {
  const cache = await caches.open(cacheName);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(fallbackKey ?? request, response.clone());
    return response;
  } catch (error) {
    const kept = await cache.match(fallbackKey ?? request);
    if (!kept) throw error;
    // The page says how old what it shows is ("actualizado hace 12 min"): the kept answer's date.
    void tellPages({ type: 'surtido-offline', savedAt: kept.headers.get('date') });
    const headers = new Headers(kept.headers);
    headers.set('x-surtido-offline', '1');
    return new Response(kept.body, { status: kept.status, statusText: kept.statusText, headers });
  }
}

async function cacheFirst(request, cacheName) {
  const cache = await caches.open(cacheName);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === 'navigate' && url.pathname.startsWith('/shop')) {
    event.respondWith(networkFirst(request, SHELL, '/shop/'));
  } else if (url.pathname.startsWith('/shop/assets/')) {
    event.respondWith(cacheFirst(request, SHELL));
  } else if (url.pathname.startsWith('/images/')) {
    event.respondWith(cacheFirst(request, IMAGES));
  } else if (url.pathname.startsWith('/app/')) {
    // Kept per person: the token is part of the key, so a shared phone never shows one
    // person's data to another (sign-out also deletes this cache).
    const auth = request.headers.get('authorization') ?? '';
    const key = `${url.pathname}${url.search}${url.search ? '&' : '?'}__who=${encodeURIComponent(auth.slice(-16))}`;
    event.respondWith(networkFirst(request, DATA, key));
  }
});
