import type { Db } from './database';
import { DeliveriesStore } from './deliveries-store';
import { EndpointsStore } from './endpoints-store';
import { EventsStore } from './events-store';
import { NoticesStore } from './notices-store';
import { PrivacyStore } from './privacy-store';

/** Every store over one connection (better-sqlite3 is synchronous: one connection serves the process). */
export interface Stores {
	db: Db;
	endpoints: EndpointsStore;
	events: EventsStore;
	deliveries: DeliveriesStore;
	notices: NoticesStore;
	privacy: PrivacyStore;
}

export function createStores( db: Db ): Stores {
	return {
		db,
		endpoints: new EndpointsStore( db ),
		events: new EventsStore( db ),
		deliveries: new DeliveriesStore( db ),
		notices: new NoticesStore( db ),
		privacy: new PrivacyStore( db ),
	};
}
