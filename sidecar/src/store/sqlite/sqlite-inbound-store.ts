import { DEFAULT_LOG_KEEP } from '../../model/inbound';
import type { InboundStore } from '../inbound-store';
import type { Db } from './database';
import { InboundLogStore } from './inbound-log-store';
import { promised } from './promised';
import { InboundSourcesStore } from './sources-store';

/** The embedded store's inbound side: its synchronous sources and log, each call answered as a promise. */
export function sqliteInboundStore( db: Db, logKeep = DEFAULT_LOG_KEEP ): InboundStore {
	return {
		...promised( new InboundSourcesStore( db ), {
			getSource: 'get',
			listSources: 'list',
			createSource: 'create',
			updateSource: 'update',
			deleteSource: 'delete',
			rotateSourceSecret: 'rotateSecret',
		} ),
		...promised( new InboundLogStore( db, logKeep ), {
			recordVerification: 'record',
			recordAnswer: 'recordAnswer',
			listVerifications: 'list',
		} ),
	};
}
