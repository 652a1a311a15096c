/** What both stores' outbound runtimes start and stop: a dispatcher, a notice sender, the upkeep. */
export interface OutboundWorkers {
	dispatcher: { start: () => void; stop: ( graceMs: number ) => Promise< void > };
	notices: { start: () => void; stop: ( graceMs: number ) => Promise< void > };
	maintenance: { start: () => void; stop: () => Promise< void > };
}

/**
 * The order the workers start and stop in, the same on both stores. Start: the dispatcher
 * first (it re-queues what a crash left in flight before anything is sent), then the notices a
 * crash left unsent, then the upkeep. Stop: the upkeep first, then the attempts in flight
 * (which may queue notices), then the notices being sent, all within graceMs.
 */
export function workerLifecycle( workers: OutboundWorkers ): {
	start: () => void;
	stop: ( graceMs: number ) => Promise< void >;
} {
	const { dispatcher, notices, maintenance } = workers;
	return {
		start() {
			dispatcher.start();
			notices.start();
			maintenance.start();
		},
		async stop( graceMs ) {
			const deadline = Date.now() + graceMs;
			await maintenance.stop();
			await dispatcher.stop( Math.max( 0, deadline - Date.now() ) );
			await notices.stop( Math.max( 0, deadline - Date.now() ) );
		},
	};
}
