import type { SidecarConfig } from '../../../sidecar/src/config';
import { createApp } from '../../../sidecar/src/http/app';
import type { Logger } from '../../../sidecar/src/logger';
import { storeMetrics, type SidecarMetrics } from '../../../sidecar/src/metrics/registry';
import { Dispatcher } from '../../../sidecar/src/outbound/dispatcher';
import type { QueueStore } from '../../../sidecar/src/store/queue-store';

/** An instance's app over its store and dispatcher, as cli-start.ts builds it (its own registry unless given). */
export function instanceApp(
	store: QueueStore,
	config: SidecarConfig,
	log: Logger,
	dispatcher: Dispatcher,
	metrics: SidecarMetrics = storeMetrics( store, log )
) {
	return createApp( { config, log, startedAt: Date.now(), store, dispatcher, metrics } );
}

/** A dispatcher named `name` on the shared store, polling every pollMs (a minute: only what a test wakes it for). */
export function leasedDispatcher(
	store: QueueStore,
	config: SidecarConfig,
	log: Logger,
	name: string,
	pollMs = 60_000
): Dispatcher {
	return new Dispatcher( { config, log, store, instanceId: name, coordination: { kind: 'leases', pollMs } } );
}
