import { PLAYGROUND_COOKIE } from '../../../scripts/lib/wp-env';
import { waitUntil } from '../../support/wait-until';
import { wp } from '../cli/run-wp';
import { readState } from './environment';

/**
 * WP-Cron as the tests drive it. Both runtimes run the site with DISABLE_WP_CRON (no page view
 * spawns cron): WP-Cron runs when wp-cron.php is requested, by these helpers and, on the
 * production runtime, by its cron loop every few seconds, as a system cron does.
 */

/** The longest a test waits for cron to do something. */
export const CRON_WAIT_MS = 60_000;

/**
 * After this long without the awaited outcome, on the production runtime, WP-CLI runs the due
 * events and the hooks the caller names now. WordPress keeps its cron events in one option, and
 * a wp-cron.php run that started before a request scheduled an event writes back its own copy
 * without that event (core's cron race, likelier with PHP-FPM's workers side by side). The plugin
 * schedules a periodic job for what such a lost event leaves behind (the inbound sweep every five
 * minutes, the outbox hand-over every minute); running that job now is what its schedule does
 * later. Playground's single PHP worker never runs two requests at once, so it loses no event.
 */
const WP_CRON_ALONE_MS = 20_000;

/**
 * Requests wp-cron.php as a system cron does. Without `?doing_wp_cron`, it takes WP-Cron's lock
 * itself, and returns at once while another run holds it (the production runtime's cron loop).
 */
export async function runCron(): Promise< void > {
	const response = await fetch( `${ readState().siteUrl }/wp-cron.php`, { headers: { cookie: PLAYGROUND_COOKIE } } );
	await response.text();
}

/** WP-CLI runs the events that are due and every event of `hooks`, now. */
async function runEventsNow( hooks: string[] ): Promise< void > {
	const due = await wp( 'cron', 'event', 'run', '--due-now' );
	// Exit 1 with "No events" when nothing is due: not an error here.
	if ( due.status !== 0 && ! /no .*events/i.test( due.stderr + due.stdout ) ) {
		throw new Error( `wp cron event run --due-now failed: ${ due.stderr || due.stdout }` );
	}
	if ( hooks.length > 0 ) {
		const forced = await wp( 'cron', 'event', 'run', ...hooks );
		if ( forced.status !== 0 ) {
			throw new Error( `wp cron event run ${ hooks.join( ' ' ) } failed: ${ forced.stderr || forced.stdout }` );
		}
	}
}

export interface CronWait {
	/** Periodic jobs that catch what a lost cron event left behind (see WP_CRON_ALONE_MS). */
	catchUpHooks?: string[];
	timeoutMs?: number;
}

/**
 * Checks, and runs cron between checks, until `check` returns a value: that value. Cron is what
 * must make it true; the cron run itself is the pause between checks.
 */
export async function cronUntil< T >(
	check: () => Promise< T | undefined | false >,
	what: string,
	{ catchUpHooks = [], timeoutMs = CRON_WAIT_MS }: CronWait = {}
): Promise< T > {
	const started = Date.now();
	const production = readState().runtime === 'production';
	let value: T | undefined | false;
	await waitUntil(
		async () => {
			value = await check();
			if ( value ) {
				return true;
			}
			if ( production && Date.now() - started > WP_CRON_ALONE_MS ) {
				await runEventsNow( catchUpHooks );
			} else {
				await runCron();
			}
			return false;
		},
		timeoutMs,
		what,
		0
	);
	return value as T;
}
