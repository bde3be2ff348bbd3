// Open a profile (any format speedscope reads: pprof, Chrome trace events,
// ...) in speedscope, the npm package's built app, in headless Chromium,
// offline, and print as JSON what speedscope makes of it: per profile its
// name, unit and total weight (from speedscope's own Export, so exact), the
// weight it puts on each function at the top of a stack (self), and the top
// rows of its sandwich table as shown (function, total, self, and the
// percentages of the bars); then save a screenshot of the first profile in
// the given view.  Exits 1 if the file does not load.
//   node speedscope.mjs FILE out.png [sandwich|left-heavy|time-ordered]
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const [file, png, view = 'sandwich'] = process.argv.slice(2);
const app = fileURLToPath(new URL('node_modules/speedscope/dist/release/index.html',
				   import.meta.url));
const ROWS = 12;
const tabs = { 'time-ordered': 'Time Order', 'left-heavy': 'Left Heavy', sandwich: 'Sandwich' };

const browser = await chromium.launch({
	executablePath: '/usr/bin/chromium',
	args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
	       '--disable-background-networking', '--disable-component-update',
	       '--disable-sync'],
});
try {
	const page = await browser.newPage({ viewport: { width: 1400, height: 600 } });
	const requests = [];
	page.on('request', (r) => {
		if (!/^(file|data|blob):/.test(r.url()))
			requests.push(r.url());
	});
	// speedscope says it failed with an alert() or an error page
	const broken = new Promise((resolve) => {
		page.on('dialog', (d) => { resolve(d.message()); d.dismiss().catch(() => {}); });
		page.on('pageerror', (e) => resolve(e.message));
		page.getByText('Something went wrong').waitFor({ timeout: 0 })
			.then(() => resolve('Something went wrong'), () => {});
	});
	const tab = (name) => page.locator('div', { hasText: new RegExp(`^\\W*${name}$`) }).last();
	const frame = () => page.evaluate(() => new Promise((r) =>
		requestAnimationFrame(() => requestAnimationFrame(r))));

	await page.goto('file://' + app);
	await page.setInputFiles('input#file', file);
	const error = await Promise.race([broken, tab('Sandwich').waitFor().then(() => null)]);
	if (error)
		throw new Error(`speedscope did not load ${file}: ${error}`);

	// speedscope's Export: its profiles, evented, in a JSON file
	const [download] = await Promise.all([page.waitForEvent('download'), tab('Export').click()]);
	const exported = JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
	const frames = exported.shared.frames;
	const profiles = exported.profiles.map((p) => {
		const self = {}, stack = [];
		let last = p.startValue;
		for (const e of p.events) {
			if (stack.length) {
				const name = frames[stack[stack.length - 1]].name;
				self[name] = (self[name] || 0) + e.at - last;
			}
			last = e.at;
			if (e.type === 'O')
				stack.push(e.frame);
			else
				stack.pop();
		}
		for (const name in self)
			if (!self[name])
				delete self[name];
		return { name: p.name, unit: p.unit, total: p.endValue - p.startValue, self };
	});

	// the sandwich table as shown (sorted as speedscope sorts it: by self)
	// (the profile selector's table is there too, hidden)
	const row = 'table tr:has(td) >> visible=true';
	const rows = () => page.$$eval('table tr:has(td)', (trs, n) => trs.filter((tr) =>
		tr.getClientRects().length).slice(0, n).map((tr) => {
		const td = [...tr.querySelectorAll('td')];
		const pct = (c) => parseFloat(c.querySelector('div > div')?.style.width);
		return { function: td[2].textContent, total: td[0].textContent,
			 self: td[1].textContent, totalPct: pct(td[0]), selfPct: pct(td[1]) };
	}), ROWS);
	const at = (i) => page.waitForFunction((s) => document.body.innerText.includes(s),
					       `(${i + 1}/${profiles.length})`);
	await tab('Sandwich').click();
	await page.locator(row).first().waitFor();
	for (let i = 0; i < profiles.length; i++) {
		if (i) {
			await page.keyboard.press('n');		// the next profile
			await at(i);
			await page.locator(row).first().waitFor();
		}
		profiles[i].sandwich = await rows();
	}

	// the screenshot: the first profile, in the view asked for
	for (let i = profiles.length - 1; i > 0; i--) {
		await page.keyboard.press('p');
		await at(i - 1);
	}
	await tab(tabs[view]).click();
	if (view === 'sandwich')	// its callers and callees beside the table
		await page.locator(row).first().click();
	await frame();
	await page.screenshot({ path: png });
	console.log(JSON.stringify({ file: path.basename(file), name: exported.name,
				     profiles, requests, screenshot: png }, null, 1));
} catch (e) {
	console.error(e.message);
	process.exitCode = 1;
} finally {
	await browser.close();
}
