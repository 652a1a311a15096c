import { Button, TextControl } from '@wordpress/components';
import { useState } from '@wordpress/element';
import { __, _n, sprintf } from '@wordpress/i18n';
import { replayFailedSince } from '../api/webhooks';
import { isoToLocalInput, localInputToIso } from '../components/format';
import type { Action } from '../hooks/use-action';

interface Props {
	/** The endpoint the deliveries list is filtered on, or '' for every endpoint. */
	endpointId: string;
	action: Action;
	/** Says how many deliveries were queued again. */
	onReplayed: ( message: string ) => void;
}

/** Sends again the failed (or cancelled) deliveries since a time, after a receiver was down. */
export function ReplayFailedForm( { endpointId, action, onReplayed }: Props ) {
	const [ since, setSince ] = useState( () => isoToLocalInput( new Date( Date.now() - 24 * 3600 * 1000 ) ) );

	const replaySince = async () => {
		const iso = localInputToIso( since );
		if ( ! iso ) {
			action.invalid(
				__( 'Enter the date and time from which to replay the failed deliveries.', 'service-integration' ),
				'since'
			);
			return;
		}
		const answer = await action.run( 'replay-since', () => replayFailedSince( iso, endpointId || undefined ) );
		if ( answer ) {
			onReplayed(
				sprintf(
					/* translators: %d: number of deliveries. */ _n(
						'%d failed delivery queued again.',
						'%d failed deliveries queued again.',
						answer.requeued,
						'service-integration'
					),
					answer.requeued
				)
			);
		}
	};

	return (
		<form
			className="si-subsection si-inline-form si-replay-since"
			noValidate
			aria-label={ __( 'Replay failed deliveries', 'service-integration' ) }
			onSubmit={ ( event ) => {
				event.preventDefault();
				void replaySince();
			} }
		>
			<h3>{ __( 'Replay failed deliveries', 'service-integration' ) }</h3>
			<p className="si-help">
				{ endpointId
					? __(
							'Sends again every delivery to the endpoint selected above that failed or was cancelled since this time (e.g. after the receiver was down).',
							'service-integration'
						)
					: __(
							'Sends again every delivery that failed or was cancelled since this time (e.g. after a receiver was down).',
							'service-integration'
						) }
			</p>
			<TextControl
				__nextHasNoMarginBottom
				__next40pxDefaultSize
				label={ __( 'Since (your local time)', 'service-integration' ) }
				type="datetime-local"
				value={ since }
				onChange={ ( value: string ) => setSince( value ) }
			/>
			<Button
				variant="secondary"
				type="submit"
				isBusy={ action.busy === 'replay-since' }
				disabled={ action.busy !== null }
			>
				{ __( 'Replay failed deliveries', 'service-integration' ) }
			</Button>
		</form>
	);
}
