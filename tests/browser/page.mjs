// What the flame graph checks share: open a flame graph in headless
// Chromium, offline, once it is drawn run the checks on the page, take a
// screenshot, and exit 1 if a check failed.  checks(page, check) calls
// check(what, ok) for each thing it checks.
import { chromium } from 'playwright-core';

export async function checkFlameGraph(html, png, checks,
				      { height = 900, fullPage = false, before } = {}) {
	const browser = await chromium.launch({
		executablePath: '/usr/bin/chromium',
		args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
		       '--disable-background-networking', '--disable-component-update',
		       '--disable-sync'],
	});
	let failed = 0;
	const check = (what, ok) => {
		console.log(`${what} ${ok ? 'ok' : 'FAIL'}`);
		if (!ok)
			failed++;
	};
	try {
		const page = await browser.newPage({ viewport: { width: 1400, height } });
		if (before)
			before(page);
		await page.goto('file://' + html);
		await page.waitForSelector('svg g.frame rect');
		await page.waitForTimeout(1500);	// let the transitions end
		await checks(page, check);
		await page.screenshot({ path: png, fullPage });
		console.log(`screenshot: ${png}`);
	} finally {
		await browser.close();
	}
	process.exit(failed ? 1 : 0);
}
