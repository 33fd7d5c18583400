// The static web build's service worker (companion/web/build.py fills in the version and files):
// every file of the build is kept at install, then served from the cache, so after the first
// open the app opens with no network at all.  A new build (new version) replaces the old cache.
'use strict';

const VERSION = 'leviathans-__VERSION__';
const FILES = __FILES__;

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(VERSION);
    await cache.addAll(FILES.map((name) => new Request(name, { cache: 'reload' })));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith('leviathans-') && name !== VERSION) {
        await caches.delete(name);
      }
    }
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) {
    return;
  }
  event.respondWith((async () => {
    const cache = await caches.open(VERSION);
    const page = request.mode === 'navigate';
    const kept = await cache.match(page ? './' : request, { ignoreSearch: true });
    if (kept) {
      return kept;
    }
    return fetch(request);
  })());
});
