import { INBOUND_SCHEMES, type InboundScheme } from '../../../sidecar/src/contracts/constants';
import { forgeryCases, type ForgeryCase } from '../../support/inbound-forgeries';
import { sampleWebhook } from '../../support/inbound-signers';
import { adminClient } from '../support/clients';
import { readState } from '../support/environment';
import { setPluginActive } from '../support/plugins';
import { runCron } from '../support/cron';
import {
	ADMIN,
	createSource,
	inboundCronUntil,
	eventsFor,
	listEvents,
	pooled,
	RECORDER_PLUGIN,
	recordedCalls,
	sendWebhook,
} from '../support/inbound';

/**
 * The generated forgeries of the sidecar-level sweep (tests/support/inbound-forgeries.ts),
 * about two hundred, sent through the real WordPress receiving route: each refused with
 * the right status and code, none stored, counted as a duplicate or handed to a handler.
 */
/**
 * The sweep takes minutes: the sources tolerate an hour, so a validly signed case does not
 * go stale before it is sent, and replays sit an hour outside that, so a "future" one does
 * not come within it.
 */
const TOLERANCE = 3600;
const PER_SCHEME = { tamperedPositions: 4, toleranceSeconds: TOLERANCE, marginSeconds: 3600 };

interface Snapshot {
	events: number;
	duplicates: number;
	calls: number;
	refusedLog: number;
}

async function snapshot(): Promise< Snapshot > {
	const page = await listEvents( { per_page: 1 } );
	const log = await adminClient().get< { total: number } >( `${ ADMIN }/log?outcome=refused&per_page=1` );
	// Events of earlier files may still reach their handlers meanwhile: only the sweep's sources count.
	const calls = ( await recordedCalls() ).filter( ( call ) => call.source.startsWith( 'forge-' ) ).length;
	return { events: page.total, duplicates: page.duplicates.deliveries, calls, refusedLog: log.body.total };
}

/**
 * Under Playground each request through WordPress takes a second or more (PHP as WebAssembly),
 * and the whole sweep alone took over ten minutes of CI's Playground run. There the sweep sends
 * every kind of refusal of each scheme (each distinct expected status and code, plus the cases
 * WordPress's transport could alter: bodies changed by whitespace, encoding or truncation,
 * headers missing or empty) and every eighth of the rest, about half; on the production runtime, where
 * the whole sweep takes seconds, it sends all. The sidecar-level sweep
 * (tests/unit/inbound/forgery-sweep.test.ts) checks every case against the verifier.
 */
function sampleForPlayground( cases: ForgeryCase[] ): ForgeryCase[] {
	if ( readState().runtime === 'production' ) {
		return cases;
	}
	const seen = new Set< string >();
	return cases.filter( ( c, index ) => {
		const kind = `${ c.source }|${ c.status }|${ JSON.stringify( c.code ) }`;
		const transport = /trailing newline|leading space|indentation|empty|truncated|missing/.test( c.label );
		const first = ! seen.has( kind );
		seen.add( kind );
		return first || transport || index % 8 === 0;
	} );
}

/** What WordPress answers instead of the sidecar: an empty body never reaches it. */
function throughWordPress( c: ForgeryCase ): ForgeryCase {
	return c.webhook.body === '' ? { ...c, status: 400, code: 'inbound_empty_body' } : c;
}

describe( 'inbound forgery sweep through WordPress', () => {
	const secrets = {} as Record< InboundScheme, string >;

	beforeAll( async () => {
		await setPluginActive( RECORDER_PLUGIN, true );
		for ( const scheme of INBOUND_SCHEMES ) {
			const source = await createSource( `forge-${ scheme }`, scheme, { tolerance_seconds: TOLERANCE } );
			secrets[ scheme ] = source.secret;
			// The same secret on a disabled source: refused for being disabled, not for the signature.
			await createSource( `forge-${ scheme }-off`, scheme, {
				secret: source.secret,
				status: 'disabled',
				tolerance_seconds: TOLERANCE,
			} );
		}
	} );

	afterAll( async () => {
		await setPluginActive( RECORDER_PLUGIN, false );
	} );

	it( 'refuses every generated forgery with the right 4xx, and leaves no event, duplicate count or handler call', async () => {
		// Controls: the unmutated webhooks are accepted, so each refusal below is its mutation's doing.
		const controls = INBOUND_SCHEMES.map( ( scheme ) => ( {
			source: `forge-${ scheme }`,
			webhook: sampleWebhook( scheme, secrets[ scheme ] ),
		} ) );
		for ( const { source, webhook } of controls ) {
			const control = await sendWebhook( source, webhook );
			expect( { source, status: control.status } ).toEqual( { source, status: 202 } );
		}
		// Processed before the baseline is taken, so their handler calls are not counted against the sweep.
		await inboundCronUntil( async () => {
			const states = await Promise.all(
				controls.map(
					async ( { source, webhook } ) =>
						( await eventsFor( source, webhook.expected.eventId ) )[ 0 ]?.status
				)
			);
			return states.every( ( state ) => state === 'processed' );
		}, 'the controls processed' );

		const cases = INBOUND_SCHEMES.flatMap( ( scheme ) =>
			forgeryCases( scheme, `forge-${ scheme }`, secrets[ scheme ], PER_SCHEME )
		)
			// Header forwarding is WordPress's own doing here; the sidecar sweep covers unforwarded headers.
			.filter( ( c ) => ! c.unprefixed )
			.map( throughWordPress );
		expect( cases.length ).toBeGreaterThanOrEqual( 190 );
		const sent = sampleForPlayground( cases );

		const before = await snapshot();
		const answers = await pooled( sent, 4, ( c ) => sendWebhook( c.source, c.webhook ) );
		const mismatches = sent.flatMap( ( c, i ) => {
			const answer = answers[ i ];
			const codes = Array.isArray( c.code ) ? c.code : [ c.code ];
			return answer && answer.status === c.status && codes.includes( answer.body?.code )
				? []
				: [
						{
							label: c.label,
							expected: [ c.status, c.code ],
							got: [ answer?.status, answer?.body?.code ],
						},
					];
		} );
		expect( mismatches ).toEqual( [] );
		expect( answers.every( ( answer ) => answer.status >= 400 && answer.status < 500 ) ).toBe( true );

		await runCron();
		const after = await snapshot();
		expect( { ...after, refusedLog: undefined } ).toEqual( { ...before, refusedLog: undefined } );
		// Every case but the empty bodies reached the sidecar, which logged it as refused.
		expect( after.refusedLog - before.refusedLog ).toBe(
			sent.filter( ( c ) => c.code !== 'inbound_empty_body' ).length
		);
	} );
} );
