import {
	DEFAULT_LOG_KEEP,
	type InboundAnswer,
	type InboundLogEntry,
	type InboundLogQuery,
	type InboundSource,
	type NewSource,
	type SourcePatch,
} from '../../model/inbound';
import { InboundLogStore } from './inbound-log-store';
import { InboundSourcesStore } from './sources-store';
import { type SecretOrigin } from '../../contracts/constants';
import type { Db } from './database';

import type { InboundStore, NewInboundLogEntry } from '../inbound-store';

/** The embedded store's inbound side: its synchronous stores, wrapped. */
export class SqliteInboundStore implements InboundStore {
	private readonly sources: InboundSourcesStore;
	private readonly log: InboundLogStore;

	constructor( db: Db, logKeep = DEFAULT_LOG_KEEP ) {
		this.sources = new InboundSourcesStore( db );
		this.log = new InboundLogStore( db, logKeep );
	}

	async getSource( id: string, now: number ): Promise< InboundSource | undefined > {
		return this.sources.get( id, now );
	}
	async listSources( now: number ): Promise< InboundSource[] > {
		return this.sources.list( now );
	}
	async createSource( input: NewSource, now: number ): Promise< InboundSource | undefined > {
		return this.sources.create( input, now );
	}
	async updateSource( id: string, patch: SourcePatch, now: number ): Promise< InboundSource | undefined > {
		return this.sources.update( id, patch, now );
	}
	async deleteSource( id: string ): Promise< boolean > {
		return this.sources.delete( id );
	}
	async rotateSourceSecret(
		id: string,
		secret: string,
		origin: SecretOrigin,
		graceMs: number,
		now: number
	): Promise< InboundSource | undefined > {
		return this.sources.rotateSecret( id, secret, origin, graceMs, now );
	}
	async recordVerification( entry: NewInboundLogEntry ): Promise< number > {
		return this.log.record( entry );
	}
	async recordAnswer( id: number, answer: InboundAnswer ): Promise< InboundLogEntry | undefined > {
		return this.log.recordAnswer( id, answer );
	}
	async listVerifications( query: InboundLogQuery ): Promise< { entries: InboundLogEntry[]; total: number } > {
		return this.log.list( query );
	}
}
