import { useState } from '@wordpress/element';
import { __ } from '@wordpress/i18n';
import { codeMessage } from '../api/code-messages';
import { INBOUND_OUTCOMES, listInboundLog, type InboundLogEntry, type InboundSource } from '../api/inbound';
import { Code } from '../components/Code';
import { ErrorNotice } from '../components/ErrorNotice';
import { FilterSelect } from '../components/FilterSelect';
import { formatDateTime, NONE, type Option } from '../components/format';
import { LoadingState } from '../components/LoadingState';
import { Pager } from '../components/Pager';
import { ResponsiveTable } from '../components/ResponsiveTable';
import { StatusBadge, type Tone } from '../components/StatusBadge';
import { useResource } from '../hooks/use-resource';

const PER_PAGE = 20;

/** What an entry says the sender was told: "Verified" only for a good signature answered with a 2xx. */
function outcomeLabel( outcome: string ): string {
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

function outcomeTone( outcome: InboundLogEntry[ 'outcome' ] ): Tone {
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

/** Every signature check: what was accepted, what was refused and why (no payloads, no secrets). */
export function InboundLog( { sources, refreshKey }: { sources: InboundSource[]; refreshKey: number } ) {
	const [ source, setSource ] = useState( '' );
	const [ outcome, setOutcome ] = useState( '' );
	const [ page, setPage ] = useState( 1 );
	const log = useResource(
		() => listInboundLog( { source, outcome, page, per_page: PER_PAGE } ),
		[ source, outcome, page, refreshKey ]
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
			<div
				className="si-filters"
				role="search"
				aria-label={ __( 'Filter the verification log', 'service-integration' ) }
			>
				<FilterSelect
					label={ __( 'Source', 'service-integration' ) }
					allLabel={ __( 'All sources', 'service-integration' ) }
					value={ source }
					options={ sources.map( ( s ): Option => ( { label: s.id, value: s.id } ) ) }
					onChange={ ( value: string ) => {
						setSource( value );
						setPage( 1 );
					} }
				/>
				<FilterSelect
					label={ __( 'Outcome', 'service-integration' ) }
					allLabel={ __( 'All outcomes', 'service-integration' ) }
					value={ outcome }
					options={ INBOUND_OUTCOMES.map( ( value ): Option => ( { label: outcomeLabel( value ), value } ) ) }
					onChange={ ( value: string ) => {
						setOutcome( value );
						setPage( 1 );
					} }
				/>
			</div>
			{ log.loading && ! log.data ? (
				<LoadingState label={ __( 'Loading the verification log…', 'service-integration' ) } />
			) : null }
			{ log.error ? (
				<ErrorNotice
					error={ log.error }
					context={ __( 'Loading the verification log', 'service-integration' ) }
					onRetry={ log.reload }
				/>
			) : null }
			{ log.data && ! log.error ? (
				log.data.entries.length === 0 ? (
					<p className="si-empty">{ __( 'Nothing received yet.', 'service-integration' ) }</p>
				) : (
					<ResponsiveTable
						caption={ __( 'Verification log, newest first', 'service-integration' ) }
						className="si-inbound-log"
					>
						<thead>
							<tr>
								<th scope="col">{ __( 'When', 'service-integration' ) }</th>
								<th scope="col">{ __( 'Source', 'service-integration' ) }</th>
								<th scope="col">{ __( 'Outcome', 'service-integration' ) }</th>
								<th scope="col">{ __( 'Answer', 'service-integration' ) }</th>
								<th scope="col">{ __( 'Reason', 'service-integration' ) }</th>
								<th scope="col">{ __( 'Event', 'service-integration' ) }</th>
							</tr>
						</thead>
						<tbody>
							{ log.data.entries.map( ( entry ) => (
								<tr key={ entry.id } data-outcome={ entry.outcome }>
									<td>{ formatDateTime( entry.at ) }</td>
									<td>{ entry.source }</td>
									<td>
										<StatusBadge tone={ outcomeTone( entry.outcome ) }>
											{ outcomeLabel( entry.outcome ) }
										</StatusBadge>
									</td>
									<td className="si-answer">{ entry.answer_status ?? NONE }</td>
									<td className="si-reason">
										{ entry.code ? (
											<>
												{ codeMessage( entry.code ) ?? '' }{ ' ' }
												<Code className="si-error-code">{ entry.code }</Code>
											</>
										) : (
											NONE
										) }
									</td>
									<td>
										{ entry.event_id ? (
											<Code className="si-event-id">{ entry.event_id }</Code>
										) : (
											NONE
										) }
									</td>
								</tr>
							) ) }
						</tbody>
					</ResponsiveTable>
				)
			) : null }
			{ log.data && ! log.error ? (
				<Pager
					page={ page }
					perPage={ PER_PAGE }
					total={ log.data.total }
					busy={ log.loading }
					onPage={ setPage }
					label={ __( 'Verification log pages', 'service-integration' ) }
				/>
			) : null }
		</div>
	);
}
