import { SelectControl, TextControl } from '@wordpress/components';
import { useState } from '@wordpress/element';
import { __ } from '@wordpress/i18n';
import { INBOUND_SCHEMES, SOURCE_ID_PATTERN, type InboundScheme, type InboundSourceInput } from '../api/inbound';
import type { AddFormProps } from '../components/AddPanel';
import type { Option } from '../components/format';
import { FormButtons } from '../components/FormButtons';

export function schemeLabel( scheme: string ): string {
	switch ( scheme ) {
		case 'standard-webhooks':
			return __( 'Standard Webhooks', 'service-integration' );
		case 'stripe':
			return __( 'Stripe', 'service-integration' );
		case 'github':
			return __( 'GitHub', 'service-integration' );
		case 'shopify':
			return __( 'Shopify', 'service-integration' );
		case 'woocommerce':
			return __( 'WooCommerce', 'service-integration' );
		default:
			return scheme;
	}
}

/** Where the secret comes from, per scheme: some services issue their own. */
export function secretHelp( scheme: string ): string {
	switch ( scheme ) {
		case 'stripe':
			return __(
				'Stripe issues the signing secret (whsec_…) when you add the endpoint in its dashboard: paste it here.',
				'service-integration'
			);
		case 'shopify':
			return __(
				"Shopify signs with your app's client secret (or the secret shown under Settings → Notifications → Webhooks): paste it here.",
				'service-integration'
			);
		default:
			return __(
				'Leave empty to have a strong secret generated and shown once, then give it to the remote service; or paste the one you already set there.',
				'service-integration'
			);
	}
}

/** Why the identifier cannot be used, or null. */
export function sourceIdProblem( id: string ): string | null {
	if ( id === '' ) {
		return __( 'Enter an identifier for the source.', 'service-integration' );
	}
	return SOURCE_ID_PATTERN.test( id )
		? null
		: __(
				'The identifier may contain only lower-case letters, digits and dashes (at most 64).',
				'service-integration'
			);
}

/** A new receiving source: its id (part of the receiving URL), signature scheme, secret, description. */
export function InboundSourceForm( { busy, onSubmit, onInvalid, onCancel }: AddFormProps< InboundSourceInput > ) {
	const [ id, setId ] = useState( '' );
	const [ scheme, setScheme ] = useState< InboundScheme >( 'standard-webhooks' );
	const [ secret, setSecret ] = useState( '' );
	const [ description, setDescription ] = useState( '' );

	return (
		<form
			className="si-form si-source-form"
			aria-label={ __( 'Add a source', 'service-integration' ) }
			// Checked here, so the problem shows where the site's own errors do (one at a time), not in a browser bubble.
			noValidate
			onSubmit={ ( event ) => {
				event.preventDefault();
				const problem = sourceIdProblem( id );
				if ( problem ) {
					onInvalid( problem, 'id' );
					return;
				}
				onSubmit( { id, scheme, secret: secret.trim() || undefined, description: description.trim() } );
			} }
		>
			<TextControl
				__nextHasNoMarginBottom
				__next40pxDefaultSize
				label={ __( 'Identifier', 'service-integration' ) }
				help={ __(
					'A short name of lower-case letters, digits and dashes, e.g. stripe-live. It becomes the last part of the receiving URL.',
					'service-integration'
				) }
				value={ id }
				required
				maxLength={ 64 }
				onChange={ ( value: string ) => setId( value.toLowerCase() ) }
			/>
			<SelectControl
				__nextHasNoMarginBottom
				__next40pxDefaultSize
				label={ __( 'Signature scheme', 'service-integration' ) }
				help={ __( 'How the remote service signs its webhooks.', 'service-integration' ) }
				value={ scheme }
				options={ INBOUND_SCHEMES.map( ( value ): Option => ( { label: schemeLabel( value ), value } ) ) }
				onChange={ ( value: string ) => setScheme( value as InboundScheme ) }
			/>
			<TextControl
				__nextHasNoMarginBottom
				__next40pxDefaultSize
				label={ __( 'Signing secret', 'service-integration' ) }
				help={ secretHelp( scheme ) }
				type="password"
				autoComplete="off"
				value={ secret }
				onChange={ ( value: string ) => setSecret( value ) }
			/>
			<TextControl
				__nextHasNoMarginBottom
				__next40pxDefaultSize
				label={ __( 'Description', 'service-integration' ) }
				value={ description }
				maxLength={ 500 }
				onChange={ ( value: string ) => setDescription( value ) }
			/>
			<FormButtons
				submitLabel={ __( 'Add source', 'service-integration' ) }
				busy={ busy }
				onCancel={ onCancel }
			/>
		</form>
	);
}
