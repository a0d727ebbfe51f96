// A store's buyers in the console (issue #34), in Spanish at a phone's size (390x844), in a
// real browser (Debian's Chromium) against the real service on embedded PGlite; axe on every
// page. The ERP (the test, through the project's client) loads the demo catalog, whose store
// has one buyer. The owner opens the store from "Tiendas", adds a buyer (a phone without the
// country code is refused under its field first), edits them (a new phone and an email),
// removes the demo's buyer after the inline question, and the supplier API answers the same
// buyers. Another supplier's store is a page that does not exist; a viewer sees the buyers
// and no button. Failed before the fix: a store had no page, and the console no way to
// manage its buyers. Runs in the PGlite pass only (skipped when DATABASE_URL is set).
import { expect, it } from 'vitest';
import { DEMO_STORE } from '../../src/main/demo-catalog.ts';
import { accessible, consoleSignIn, consoleWorld, inBrowser, ownerWithDemoCatalog } from './console-harness.ts';

const world = consoleWorld();
const OWNER = 'compras@norte.test';
const VIEWER = 'lectura@norte.test';
const PHONE = { width: 390, height: 844 };
const SHOTS = process.env.E2E_SHOTS;

inBrowser("the console: a store's buyers", () => {
  it('the owner adds, edits and removes a store’s buyers on a phone, with the supplier API’s rules', async () => {
    const { t } = world;
    const { supplier, surtido } = await ownerWithDemoCatalog(world, OWNER);
    // Another supplier with a store of its own, and a buyer the owner must never see.
    const other = await t.supplier('DSUR');
    await t.runBatch(other, '/batch/store', { upsert: [{ internalCode: 'TIENDA-SUR', name: 'Tienda del Sur' }] });
    const sur = await t.request({ method: 'POST', url: '/store/TIENDA-SUR/add/user', headers: other.headers, payload: { users: [{ phone: '+573007770000', name: 'Beto Sur' }] } });
    expect(sur.statusCode, sur.body).toBe(200);

    const page = await (await world.desktop('es-CO', PHONE)).newPage();
    await consoleSignIn(world, page, OWNER);
    await page.goto('/console/stores');
    await page.getByRole('heading', { name: 'Tiendas', level: 1 }).waitFor();
    await page.getByRole('link', { name: DEMO_STORE, exact: true }).click();
    await page.waitForURL(`**/console/stores/${DEMO_STORE}`);
    await page.getByRole('heading', { name: 'Tienda Doña Rosa (demo)', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Compradores', level: 2 }).waitFor();
    const demo = page.locator('tr[data-buyer="+573000000001"]');
    await demo.waitFor();
    expect(await demo.textContent()).toContain('Rosa (demo)');
    await accessible(page, 'store with its buyers');

    // Adding: the API's rule (a phone in E.164), said under the field.
    const form = page.getByRole('form', { name: 'Agregar un comprador' });
    await form.getByLabel('Teléfono').fill('300 555');
    await form.getByLabel('Nombre').fill('Luis Gómez');
    await form.getByRole('button', { name: 'Agregar comprador' }).click();
    const problem = page.locator('#buyer-phone-problem');
    await problem.waitFor();
    expect(await problem.textContent()).toBe('Escribe el teléfono con el indicativo del país, p. ej. +573001234567.');
    expect(await form.getByLabel('Teléfono').getAttribute('aria-invalid')).toBe('true');
    await accessible(page, 'store, a refused phone');
    // As typed on a phone, with spaces: sent as E.164.
    await form.getByLabel('Teléfono').fill('+57 300 555 1234');
    await form.getByRole('button', { name: 'Agregar comprador' }).click();
    await form.getByText('Comprador agregado.').waitFor();
    const luis = page.locator('tr[data-buyer="+573005551234"]');
    await luis.waitFor();
    expect(await luis.textContent()).toContain('Luis Gómez');

    // Editing: a new phone and an email, in one step.
    await page.getByRole('button', { name: 'Editar a Luis Gómez' }).click();
    const edit = page.getByRole('form', { name: 'Editar a Luis Gómez' });
    await edit.waitFor();
    expect(await edit.getByLabel('Teléfono').inputValue()).toBe('+573005551234');
    await edit.getByLabel('Teléfono').fill('+57 311 222 3344');
    await edit.getByLabel('Correo').fill('Luis@Norte.test');
    await edit.getByRole('button', { name: 'Guardar cambios' }).click();
    const edited = page.locator('tr[data-buyer="+573112223344"]');
    await edited.waitFor();
    expect(await edited.textContent()).toContain('luis@norte.test');
    expect(await luis.count()).toBe(0);
    await page.getByRole('form', { name: 'Agregar un comprador' }).waitFor();

    // Removing: asked, then confirmed.
    await page.getByRole('button', { name: 'Quitar a Rosa (demo)' }).click();
    await accessible(page, 'store, removing a buyer');
    await page.getByRole('button', { name: 'Sí, quitar a Rosa (demo)' }).click();
    await demo.waitFor({ state: 'detached' });
    expect(await page.locator('tr[data-buyer]').count()).toBe(1);
    // Every control of the page a thumb can reach: 44 px at least.
    for (const control of await page.locator('main button, main input').all()) {
      const box = await control.boundingBox();
      if (box) expect(box.height, await control.evaluate((e) => e.outerHTML.slice(0, 80))).toBeGreaterThanOrEqual(44);
    }
    await accessible(page, 'store after the edits');
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/console-store-buyers.png`, fullPage: true });

    // What the page did is what the ERP reads.
    const store = await surtido.get('/store/{code}', { params: { path: { code: DEMO_STORE } } });
    expect(store.users).toEqual([{ phone: '+573112223344', email: 'luis@norte.test', name: 'Luis Gómez' }]);
    // Each write audited under the owner, as every console write is.
    const session = { authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('surtido.console.token'))}` };
    const audit = await t.request({ method: 'GET', url: '/audit?entity=store&take=3', headers: session });
    expect(audit.statusCode, audit.body).toBe(200);
    expect(audit.json().data.map((e: { actor: { id: string }; entityId: string }) => `${e.actor.id} ${e.entityId}`)).toEqual(Array(3).fill(`${OWNER} ${DEMO_STORE}`));

    // Another supplier's store does not exist for this owner; its buyer is untouched.
    await page.goto('/console/stores/TIENDA-SUR');
    await page.getByText('No lo encontramos.').waitFor();
    expect(await page.getByText('Beto Sur').count()).toBe(0);
    await accessible(page, "another supplier's store");
    const theirs = await t.request({ method: 'GET', url: '/store/TIENDA-SUR', headers: other.headers });
    expect(theirs.json().users).toEqual([{ phone: '+573007770000', email: null, name: 'Beto Sur' }]);

    // A viewer reads the buyers and has no button that writes.
    const added = await t.admin('POST', `/admin/suppliers/${supplier.id}/members`, { email: VIEWER, role: 'viewer' });
    expect(added.statusCode, added.body).toBe(200);
    const viewer = await (await world.desktop('es-CO', PHONE)).newPage();
    await consoleSignIn(world, viewer, VIEWER);
    await viewer.goto(`/console/stores/${DEMO_STORE}`);
    await viewer.locator('tr[data-buyer="+573112223344"]').waitFor();
    expect(await viewer.locator('main').getByRole('button').count()).toBe(0);
    expect(await viewer.getByRole('form').count()).toBe(0);
    await accessible(viewer, 'store (viewer)');
  }, 180_000);
});
