import { TextControl, ToggleControl } from '@wordpress/components';
import { useId, useState } from '@wordpress/element';
import { __ } from '@wordpress/i18n';
import { EVENT_TYPES, type Endpoint, type EndpointInput } from '../api/webhooks';
import { EventTypeCheckboxes } from '../components/EventTypeCheckboxes';
import { FormButtons } from '../components/FormButtons';

interface Props {
	/** The endpoint being edited; a new one when absent. */
	initial?: Endpoint;
	busy: boolean;
	onSubmit: ( input: EndpointInput ) => void;
	/** A problem with the input, found before sending (shown in place of any earlier error). */
	onInvalid: ( message: string, field: string ) => void;
	onCancel?: () => void;
}

/** Why the URL cannot be sent to the sidecar as it is, or null. (The sidecar checks the rest: blocked addresses, ports.) */
export function endpointUrlProblem( url: string ): string | null {
	if ( url === '' ) {
		return __( 'Enter the endpoint URL.', 'service-integration' );
	}
	let parsed: URL;
	try {
		parsed = new URL( url );
	} catch {
		return __(
			'The endpoint URL is not a valid URL: give the full address, starting with https:// (or http://).',
			'service-integration'
		);
	}
	if ( parsed.protocol !== 'https:' && parsed.protocol !== 'http:' ) {
		return __( 'The endpoint URL must start with https:// (or http://).', 'service-integration' );
	}
	return null;
}

/** URL, subscribed event types (none = all), description, WooCommerce-compatible headers, re-send on recovery. */
export function EndpointForm( { initial, busy, onSubmit, onInvalid, onCancel }: Props ) {
	const id = useId();
	const [ url, setUrl ] = useState( initial?.url ?? '' );
	const [ types, setTypes ] = useState< string[] >( initial?.event_types ?? [] );
	const [ description, setDescription ] = useState( initial?.description ?? '' );
	const [ wcCompat, setWcCompat ] = useState( initial?.wc_compat_signature ?? false );
	const [ resendOnRecovery, setResendOnRecovery ] = useState( initial?.resend_failed_on_recovery ?? true );

	return (
		<form
			className="si-form si-endpoint-form"
			aria-label={
				initial
					? __( 'Edit the endpoint', 'service-integration' )
					: __( 'Add an endpoint', 'service-integration' )
			}
			// Checked here, so the problem shows where the site's own errors do (one at a time), not in a browser bubble.
			noValidate
			onSubmit={ ( event ) => {
				event.preventDefault();
				const problem = endpointUrlProblem( url.trim() );
				if ( problem ) {
					onInvalid( problem, 'url' );
					return;
				}
				onSubmit( {
					url: url.trim(),
					event_types: EVENT_TYPES.filter( ( type ) => types.includes( type ) ),
					description: description.trim(),
					wc_compat_signature: wcCompat,
					resend_failed_on_recovery: resendOnRecovery,
				} );
			} }
		>
			<TextControl
				__nextHasNoMarginBottom
				__next40pxDefaultSize
				label={ __( 'Endpoint URL', 'service-integration' ) }
				help={ __(
					'Where the sidecar sends the signed webhooks, e.g. https://n8n.example.com/webhook/orders.',
					'service-integration'
				) }
				type="url"
				required
				value={ url }
				onChange={ ( value: string ) => setUrl( value ) }
			/>
			<fieldset className="si-fieldset">
				<legend>{ __( 'Events', 'service-integration' ) }</legend>
				<p className="si-help" id={ `${ id }-events-help` }>
					{ __( 'Leave all unticked to receive every event type.', 'service-integration' ) }
				</p>
				<EventTypeCheckboxes selected={ types } onChange={ setTypes } />
			</fieldset>
			<TextControl
				__nextHasNoMarginBottom
				__next40pxDefaultSize
				label={ __( 'Description', 'service-integration' ) }
				value={ description }
				maxLength={ 500 }
				onChange={ ( value: string ) => setDescription( value ) }
			/>
			<ToggleControl
				__nextHasNoMarginBottom
				label={ __( 'Also send WooCommerce-compatible signature headers', 'service-integration' ) }
				help={ __(
					'Adds the x-wc-webhook-* headers, for receivers written for WooCommerce webhooks.',
					'service-integration'
				) }
				checked={ wcCompat }
				onChange={ ( checked: boolean ) => setWcCompat( checked ) }
			/>
			<ToggleControl
				__nextHasNoMarginBottom
				label={ __( 'Send again what failed once the endpoint recovers', 'service-integration' ) }
				help={ __(
					'When the endpoint succeeds again after failing, the deliveries whose retries ran out during the failure are sent again, in order, before newer ones.',
					'service-integration'
				) }
				checked={ resendOnRecovery }
				onChange={ ( checked: boolean ) => setResendOnRecovery( checked ) }
			/>
			<FormButtons
				submitLabel={
					initial ? __( 'Save changes', 'service-integration' ) : __( 'Add endpoint', 'service-integration' )
				}
				busy={ busy }
				onCancel={ onCancel }
			/>
		</form>
	);
}
