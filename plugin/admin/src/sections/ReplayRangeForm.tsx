import { Button, TextControl } from '@wordpress/components';
import { useState } from '@wordpress/element';
import { __, _n, sprintf } from '@wordpress/i18n';
import {
	EVENT_TYPES,
	replayEndpointRange,
	type Endpoint,
	type EventType,
	type RangeReplayResult,
} from '../api/webhooks';
import { EventTypeCheckboxes } from '../components/EventTypeCheckboxes';
import { formatDateTime, isoToLocalInput, localInputToIso } from '../components/format';
import type { Action } from '../hooks/use-action';

interface Props {
	endpoint: Endpoint;
	/** The section's action: one change at a time, one problem shown at a time. */
	action: Action;
	onClose: () => void;
}

/** What an answer says, in a sentence. */
export function replayResultText( result: RangeReplayResult ): string {
	const parts: string[] = [
		result.dry_run
			? sprintf(
					/* translators: %d: number of events. */ _n(
						'%d event matches.',
						'%d events match.',
						result.matched,
						'service-integration'
					),
					result.matched
				)
			: sprintf(
					/* translators: %d: number of events. */ _n(
						'%d event queued again.',
						'%d events queued again.',
						result.queued,
						'service-integration'
					),
					result.queued
				),
	];
	if ( result.already_queued > 0 ) {
		parts.push(
			sprintf(
				/* translators: %d: number of events. */
				_n(
					'%d was already queued and goes out once.',
					'%d were already queued and go out once.',
					result.already_queued,
					'service-integration'
				),
				result.already_queued
			)
		);
	}
	if ( result.more ) {
		parts.push(
			sprintf(
				/* translators: %s: date and time. */ __( 'More remain after %s.', 'service-integration' ),
				formatDateTime( result.next_from )
			)
		);
	}
	return parts.join( ' ' );
}

/**
 * Replays to one endpoint the events of chosen types received in a time range (local
 * time), including those it never got: "Count" is a dry run, "Replay" queues them.
 */
export function ReplayRangeForm( { endpoint, action, onClose }: Props ) {
	const [ types, setTypes ] = useState< EventType[] >( () =>
		EVENT_TYPES.filter( ( type ) => endpoint.event_types.length === 0 || endpoint.event_types.includes( type ) )
	);
	const [ from, setFrom ] = useState( () => isoToLocalInput( new Date( Date.now() - 24 * 3600 * 1000 ) ) );
	const [ to, setTo ] = useState( () => isoToLocalInput( new Date( Date.now() + 60 * 1000 ) ) );
	const [ result, setResult ] = useState< RangeReplayResult | null >( null );
	const key = ( dryRun: boolean ) => `${ dryRun ? 'count' : 'replay-range' }-${ endpoint.id }`;

	const submit = async ( dryRun: boolean ) => {
		const fromIso = localInputToIso( from );
		const toIso = localInputToIso( to );
		if ( ! fromIso ) {
			action.invalid( __( 'Enter the date and time the range starts from.', 'service-integration' ), 'from' );
			return;
		}
		if ( ! toIso ) {
			action.invalid( __( 'Enter the date and time the range ends at.', 'service-integration' ), 'to' );
			return;
		}
		if ( Date.parse( fromIso ) >= Date.parse( toIso ) ) {
			action.invalid( __( 'The range must end after it starts.', 'service-integration' ), 'to' );
			return;
		}
		if ( types.length === 0 ) {
			action.invalid( __( 'Tick at least one event type to replay.', 'service-integration' ), 'types' );
			return;
		}
		setResult( null );
		const answer = await action.run( key( dryRun ), () =>
			replayEndpointRange( endpoint.id, { from: fromIso, to: toIso, types, dry_run: dryRun } )
		);
		if ( answer ) {
			setResult( answer );
		}
	};

	return (
		<form
			className="si-subsection si-panel si-replay-range"
			noValidate
			aria-label={ sprintf(
				/* translators: %s: endpoint URL. */ __( 'Replay events to %s', 'service-integration' ),
				endpoint.url
			) }
			onSubmit={ ( event ) => {
				event.preventDefault();
				void submit( false );
			} }
		>
			<h3>{ __( 'Replay events', 'service-integration' ) }</h3>
			<p className="si-help">
				{ __(
					'Sends this endpoint, in order, the events of the ticked types that reached the sidecar in this time range, including those it never received (it was added later, or its event filter left them out). Each goes out once; events already queued are not queued twice. At most 1000 at a time.',
					'service-integration'
				) }
			</p>
			<fieldset className="si-fieldset">
				<legend>{ __( 'Events', 'service-integration' ) }</legend>
				<EventTypeCheckboxes selected={ types } onChange={ setTypes } />
			</fieldset>
			<div className="si-inline-form">
				<TextControl
					__nextHasNoMarginBottom
					__next40pxDefaultSize
					label={ __( 'From (your local time)', 'service-integration' ) }
					type="datetime-local"
					step={ 1 }
					value={ from }
					onChange={ ( value: string ) => setFrom( value ) }
				/>
				<TextControl
					__nextHasNoMarginBottom
					__next40pxDefaultSize
					label={ __( 'To (your local time, not included)', 'service-integration' ) }
					type="datetime-local"
					step={ 1 }
					value={ to }
					onChange={ ( value: string ) => setTo( value ) }
				/>
			</div>
			<div className="si-endpoint__actions">
				<Button
					variant="secondary"
					size="compact"
					onClick={ () => void submit( true ) }
					isBusy={ action.busy === key( true ) }
					disabled={ action.busy !== null }
				>
					{ __( 'Count', 'service-integration' ) }
				</Button>
				<Button
					variant="primary"
					size="compact"
					type="submit"
					isBusy={ action.busy === key( false ) }
					disabled={ action.busy !== null }
				>
					{ __( 'Replay', 'service-integration' ) }
				</Button>
				<Button variant="tertiary" size="compact" onClick={ onClose } disabled={ action.busy !== null }>
					{ __( 'Close', 'service-integration' ) }
				</Button>
			</div>
			{ result ? (
				<p className="si-replay-range__result" role="status">
					{ replayResultText( result ) }
				</p>
			) : null }
		</form>
	);
}
