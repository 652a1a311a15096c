import { signStandardWebhook } from '../../support/inbound-signers';
import { adminClient } from '../support/clients';
import { setPluginActive } from '../support/plugins';
import { cronUntil } from '../support/cron';
import {
	createSource,
	eventsFor,
	INBOUND_SWEEP_HOOK,
	INBOUND_SWEEP_MS,
	RECORDER_PLUGIN,
	recordedCalls,
	sendWebhook,
} from '../support/inbound';

const PLUGIN = 'service-integration/service-integration';
const PROBE = 'lifecycle-probe/lifecycle-probe';

interface CronEvent {
	hook: string;
	at: number;
	schedule: string | null;
}
interface Jobs {
	now: number;
	cron: CronEvent[];
	actions: Record< string, number | 'running' | null >;
}
interface JobsReport {
	current: Jobs;
	activated: Jobs | null;
	deactivated: Jobs | null;
}

const jobs = async (): Promise< JobsReport > => ( await adminClient().get< JobsReport >( '/si-test/v1/jobs' ) ).body;
const holdCron = async ( held: boolean ) => {
	const answer = await adminClient().post( '/si-test/v1/cron-lock', { held } );
	expect( answer.status ).toBe( 200 );
};
// The paid-orders index's reconcile is queued once by another plugin's (de)activation (the
// probes' here, Paid_Order_Index_Walk::reconcile_soon()) and gone at the next cron run: not one
// of the jobs the plugin keeps.
const RECONCILE_HOOK = 'service_integration_paid_index_reconcile';
const hooks = ( state: Jobs ) =>
	state.cron
		.filter( ( event ) => event.hook !== RECONCILE_HOOK )
		.map( ( event ) => `${ event.hook } ${ event.schedule ?? 'once' }` );
const next = ( state: Jobs, hook: string ) => state.cron.find( ( event ) => event.hook === hook )?.at;

/**
 * Issue 28, item 2: deactivation clears every job of the plugin, so activation must schedule
 * every one again, the pending ones included. Before the fix an inbound event stored before a
 * deactivation waited for the five-minute sweep after the activation: the run that processes it
 * was cleared and nothing scheduled it again. The jobs are read as the (de)activating request
 * itself left them (the lifecycle probe takes them right after the plugin's hook), since any
 * later request's `init` adds the recurring ones back.
 */
describe( 'deactivating and activating the plugin with work pending', () => {
	beforeAll( async () => {
		await setPluginActive( PROBE, true );
		await setPluginActive( RECORDER_PLUGIN, true );
	} );

	afterAll( async () => {
		await holdCron( false );
		await setPluginActive( PLUGIN, true );
		await setPluginActive( RECORDER_PLUGIN, false );
		await setPluginActive( PROBE, false );
	} );

	it( 'schedules every job again, and the stored event is processed at the next cron run, not after the sweep', async () => {
		const source = await createSource( 'reactivate-e2e', 'standard-webhooks' );
		const eventId = `msg_reactivate_${ Date.now() }`;
		// When the sweep's first run after the activation is due.
		let sweepAt = 0;
		// The cron lock held: no cron run processes the event before the deactivation.
		await holdCron( true );
		try {
			const stored = await sendWebhook(
				'reactivate-e2e',
				signStandardWebhook(
					source.secret,
					eventId,
					JSON.stringify( { type: 'order.paid', data: { order_id: 28 } } )
				)
			);
			expect( stored.status ).toBe( 202 );
			const before = ( await jobs() ).current;
			// The recorder plugin asks for processing at once (no kick delay).
			expect( next( before, 'service_integration_inbound_process' ) ).toBeLessThanOrEqual( before.now );

			await setPluginActive( PLUGIN, false );
			const deactivated = ( await jobs() ).deactivated as Jobs;
			expect( deactivated.cron ).toEqual( [] );
			expect( Object.values( deactivated.actions ).filter( ( at ) => at !== null ) ).toEqual( [] );
			// Nothing queued after the plugin's own deactivation hook either (its reconcile included).
			expect( ( await jobs() ).current.cron ).toEqual( [] );

			await setPluginActive( PLUGIN, true );
			const activated = ( await jobs() ).activated as Jobs;
			expect( activated.now ).toBeGreaterThanOrEqual( before.now );
			// Every job there was before, and no other.
			expect( hooks( activated ).sort() ).toEqual( hooks( before ).sort() );
			expect( hooks( activated ).sort() ).toEqual( [
				'service_integration_inbound_process once',
				`${ INBOUND_SWEEP_HOOK } service_integration_inbound_every_five_minutes`,
				'service_integration_outbox_flush service_integration_every_minute',
			] );
			// Nothing waits longer than it did: the stored event and the outbox at the next cron run,
			// the sweep within its period.
			expect( next( activated, 'service_integration_inbound_process' ) ).toBeLessThanOrEqual( activated.now );
			expect( next( activated, 'service_integration_outbox_flush' ) ).toBeLessThanOrEqual( activated.now );
			sweepAt = next( activated, INBOUND_SWEEP_HOOK ) as number;
			expect( sweepAt ).toBeLessThanOrEqual( activated.now + INBOUND_SWEEP_MS / 1000 );
			// The paid-orders index: its daily check (Action Scheduler, with WooCommerce), as before.
			if ( before.actions.service_integration_paid_index_check !== undefined ) {
				expect( before.actions.service_integration_paid_index_check ).not.toBeNull();
				expect( activated.actions.service_integration_paid_index_check ).not.toBeNull();
			}

			const [ waiting ] = await eventsFor( 'reactivate-e2e', eventId );
			expect( waiting?.status ).toBe( 'received' );
		} finally {
			await holdCron( false );
		}

		// Cron runs from now on process it through the kick the activation scheduled: before the
		// sweep's first run is even due. No catch-up hook here: the sweep must not be what runs it.
		const processed = await cronUntil( async () => {
			const [ event ] = await eventsFor( 'reactivate-e2e', eventId );
			return event?.status === 'processed' ? event : undefined;
		}, `the event stored before the deactivation processed before the sweep's first run (due at ${ sweepAt })` ).catch(
			async ( error: Error ) => {
				// Whether the kick is still scheduled tells a lost cron write from a slow run.
				throw new Error(
					`${ error.message }; the plugin's jobs now: ${ JSON.stringify( ( await jobs() ).current ) }`
				);
			}
		);
		expect( Date.parse( processed.processed_at as string ) / 1000 ).toBeLessThan( sweepAt );
		expect(
			( await recordedCalls( 'reactivate-e2e', eventId ) ).filter( ( call ) => call.hook === 'generic' )
		).toHaveLength( 1 );
	} );
} );
