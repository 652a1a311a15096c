import { __ } from '@wordpress/i18n';
import { codeMessage } from '../api/code-messages';
import { INBOUND_OUTCOMES, listInboundLog, type InboundLogEntry, type InboundSource } from '../api/inbound';
import { Code } from '../components/Code';
import { DataTable, type Column } from '../components/DataTable';
import { formatDateTime, NONE, type Option } from '../components/format';
import { ListScreen } from '../components/ListScreen';
import { StatusBadge } from '../components/StatusBadge';
import { useListQuery } from '../hooks/use-list-query';
import { useResource } from '../hooks/use-resource';
import { outcomeLabel, outcomeTone, sourceFilter } from './inbound-labels';

/** Every signature check: what was accepted, what was refused and why (no payloads, no secrets). */
export function InboundLog( { sources, refreshKey }: { sources: InboundSource[]; refreshKey: number } ) {
	const query = useListQuery( { source: '', outcome: '' } );
	const { filters, page, perPage } = query;
	const log = useResource(
		() => listInboundLog( { ...filters, page, per_page: perPage } ),
		[ filters.source, filters.outcome, page, refreshKey ]
	);

	return (
		<div className="si-subsection">
			<h3>{ __( 'Verification log', 'service-integration' ) }</h3>
			<p className="si-help">
				{ __(
					'Answer: the HTTP status the sender got (202 stored, 200 duplicate, 4xx refused, 503 to be sent again), as WordPress reported it; none while it has not.',
					'service-integration'
				) }
			</p>
			<ListScreen
				resource={ log }
				items={ ( data ) => data.entries }
				labels={ {
					loading: __( 'Loading the verification log…', 'service-integration' ),
					error: __( 'Loading the verification log', 'service-integration' ),
					empty: __( 'Nothing received yet.', 'service-integration' ),
				} }
				filters={ {
					label: __( 'Filter the verification log', 'service-integration' ),
					query,
					fields: [
						sourceFilter( sources ),
						{
							key: 'outcome',
							label: __( 'Outcome', 'service-integration' ),
							allLabel: __( 'All outcomes', 'service-integration' ),
							options: INBOUND_OUTCOMES.map( ( value ): Option => ( {
								label: outcomeLabel( value ),
								value,
							} ) ),
						},
					],
				} }
				paging={ {
					query,
					total: ( data ) => data.total,
					label: __( 'Verification log pages', 'service-integration' ),
				} }
			>
				{ ( entries ) => (
					<DataTable
						caption={ __( 'Verification log, newest first', 'service-integration' ) }
						className="si-inbound-log"
						columns={ logColumns() }
						rows={ entries }
						rowKey={ ( entry ) => entry.id }
						rowAttributes={ ( entry ) => ( { 'data-outcome': entry.outcome } ) }
					/>
				) }
			</ListScreen>
		</div>
	);
}

function logColumns(): Column< InboundLogEntry >[] {
	return [
		{ label: __( 'When', 'service-integration' ), render: ( entry ) => formatDateTime( entry.at ) },
		{ label: __( 'Source', 'service-integration' ), render: ( entry ) => entry.source },
		{
			label: __( 'Outcome', 'service-integration' ),
			render: ( entry ) => (
				<StatusBadge tone={ outcomeTone( entry.outcome ) }>{ outcomeLabel( entry.outcome ) }</StatusBadge>
			),
		},
		{
			label: __( 'Answer', 'service-integration' ),
			className: 'si-answer',
			render: ( entry ) => entry.answer_status ?? NONE,
		},
		{
			label: __( 'Reason', 'service-integration' ),
			className: 'si-reason',
			render: ( entry ) =>
				entry.code ? (
					<>
						{ codeMessage( entry.code ) ?? '' } <Code className="si-error-code">{ entry.code }</Code>
					</>
				) : (
					NONE
				),
		},
		{
			label: __( 'Event', 'service-integration' ),
			render: ( entry ) => ( entry.event_id ? <Code className="si-event-id">{ entry.event_id }</Code> : NONE ),
		},
	];
}
