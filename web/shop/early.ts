// The first answers a signed-in page shows, asked by a script of about 1 KB that the page
// loads beside the app (web/vite.config.ts writes its tag), before the app's 118 KB have
// arrived (issue 34). On a phone on a slow network the app's script takes most of a second
// to arrive; the catalog's answer was asked only after it (web/shop/first-data.ts), then
// the page's chunk, then its pictures, one after the other. Now they travel at once.
//
// It imports nothing, so it is a file of its own and never waits for the app's code. Each
// answer is kept by its address for the app's client to take once (takeEarly in
// web/lib/api.ts): the addresses here are the ones the app's first queries ask
// (first-data.ts's pages, in openapi-fetch's query order), and an address the app does not
// ask is simply not taken (the app asks for itself, as before). web/e2e/shop-speed.test.ts
// fails when the page asks any of these twice.
// The map's type is declared where the app reads it (web/lib/api.ts).
type Early = NonNullable<typeof globalThis.surtidoEarly>;

const PREFIX = 'surtido.shop.';
const read = (key: string) => {
  try {
    return localStorage.getItem(PREFIX + key);
  } catch {
    return null;
  }
};

/** The page opened, without the app's base ("/catalog"). */
const page = location.pathname.replace(/^\/shop/, '');

function firstAddresses(): string[] {
  const token = read('token');
  const storeId = Number(read('storeId'));
  if (!token || !(Number(read('expiresAt')) > Date.now()) || !storeId) return [];
  const store = `/app/stores/${storeId}`;
  const every = ['/app/me', '/app/notifications?unread=true&take=1'];
  if (page === '/catalog') {
    // The catalog's first page as catalogQuery asks it: the URL's filters, then take and page.
    const url = new URLSearchParams(location.search);
    const filters = ['search', 'category', 'brand'].flatMap((name) => (url.get(name) ? [`${name}=${encodeURIComponent(url.get(name)!)}`] : []));
    return [...every, `${store}/catalog?${[...filters, 'take=24', 'page=1'].join('&')}`, `${store}/promotions`, `${store}/catalog/filters`];
  }
  if (page === '/orders') return [...every, `${store}/orders?take=50`];
  if (page === '/cart') return [...every, `${store}/promotions`, `${store}/delivery-options`, `${store}/account`];
  return [];
}

/**
 * The pictures of the catalog's first rows, asked as soon as its answer is here rather than
 * once the app has drawn the rows: the largest thing the catalog paints on a phone is the
 * first row's picture. The same sources and size as the row's <img> (ProductImage in
 * web/shop/components/ProductCard.tsx), so the browser picks the same file and the row
 * finds it loaded; as many as the rows drawn eagerly (EAGER_ROWS in routes/catalog.tsx).
 */
const FIRST_PICTURES = 6;
type CatalogAnswer = { data?: { imageUrls?: Record<'160' | '480' | '1024', string> | null }[] };
function preloadPictures(answer: Response) {
  if (!answer.ok) return;
  answer
    .clone()
    .json()
    .then((page: CatalogAnswer) => {
      for (const { imageUrls: urls } of page.data?.slice(0, FIRST_PICTURES) ?? []) {
        if (!urls) continue;
        const link = Object.assign(document.createElement('link'), { rel: 'preload', as: 'image', href: urls['160'] });
        link.setAttribute('imagesrcset', `${urls['160']} 160w, ${urls['480']} 480w, ${urls['1024']} 1024w`);
        link.setAttribute('imagesizes', '64px');
        link.setAttribute('fetchpriority', 'high');
        document.head.append(link);
      }
    })
    .catch(() => undefined);
}

/**
 * The opening page's chunks (its own and those it imports beyond the app's entry), asked
 * now rather than once the app has arrived and booted (web/shop/main.tsx asks them then,
 * and finds them here): the build writes them into the page as data (web/vite.config.ts).
 */
function preloadPageChunk() {
  try {
    const pages = JSON.parse(document.querySelector('meta[name="surtido-pages"]')?.getAttribute('content') ?? '{}') as Record<string, string[]>;
    for (const chunk of pages[page] ?? []) {
      document.head.append(Object.assign(document.createElement('link'), { rel: 'modulepreload', href: chunk, crossOrigin: '' }));
    }
  } catch {
    // No data (the development server): the app asks for the chunk itself.
  }
}
const addresses = firstAddresses();
if (addresses.length > 0) preloadPageChunk();

const early: Early = new Map();
for (const address of addresses) {
  const asked = fetch(address, { headers: { authorization: `Bearer ${read('token')}` } });
  // A failed early answer is not taken: the app asks again with its own retries.
  asked.catch(() => early.delete(address));
  if (address.includes('/catalog?')) void asked.then(preloadPictures, () => undefined);
  early.set(address, asked);
}
globalThis.surtidoEarly = early;
// Only for the app's first asks: what it has not taken after half a minute (a page it did
// not open after all) is dropped, so a later read never gets an old answer.
setTimeout(() => early.clear(), 30_000);

export {};
