/** How the inbound screens name and colour what they list: sources, event statuses, outcomes. */
import { __, _x } from '@wordpress/i18n';
import type { InboundLogEntry, InboundSource } from '../api/inbound';
import type { ListFilter } from '../components/ListScreen';
import type { Tone } from '../components/StatusBadge';

/** The filter on the source, each source by its identifier: the received events' and the log's. */
export function sourceFilter( sources: InboundSource[] ): ListFilter< { source: string } > {
	return {
		key: 'source',
		label: __( 'Source', 'service-integration' ),
		allLabel: __( 'All sources', 'service-integration' ),
		options: sources.map( ( source ) => ( { label: source.id, value: source.id } ) ),
	};
}

export function inboundStatusLabel( status: string ): string {
	switch ( status ) {
		case 'received':
			return _x( 'Received', 'inbound event status', 'service-integration' );
		case 'processed':
			return _x( 'Processed', 'inbound event status', 'service-integration' );
		case 'failed':
			return _x( 'Failed', 'inbound event status', 'service-integration' );
		default:
			return status;
	}
}

const STATUS_TONES: Record< string, Tone > = { received: 'info', processed: 'success', failed: 'error' };

export function inboundStatusTone( status: string ): Tone {
	return STATUS_TONES[ status ] ?? 'neutral';
}

/** What an entry says the sender was told: "Verified" only for a good signature answered with a 2xx. */
export function outcomeLabel( outcome: string ): string {
	switch ( outcome ) {
		case 'verified':
			return __( 'Verified', 'service-integration' );
		case 'refused':
			return __( 'Refused', 'service-integration' );
		case 'not_stored':
			return __( 'Verified, not stored', 'service-integration' );
		case 'timed_out':
			return __( 'Not verified: the sidecar did not answer in time', 'service-integration' );
		case 'unconfirmed':
			return __( 'Signature valid, answer not reported', 'service-integration' );
		default:
			return outcome;
	}
}

export function outcomeTone( outcome: InboundLogEntry[ 'outcome' ] ): Tone {
	switch ( outcome ) {
		case 'verified':
			return 'success';
		case 'refused':
			return 'error';
		case 'unconfirmed':
			return 'neutral';
		default:
			return 'warning';
	}
}
