import { TextControl } from '@wordpress/components';
import { useState } from '@wordpress/element';
import { __, sprintf } from '@wordpress/i18n';
import type { InboundSource } from '../api/inbound';
import { secretHelp } from './InboundSourceForm';
import { FormButtons } from '../components/FormButtons';

/** A source's new secret: the one the service now signs with, or none to have one generated here. */
export function RotateSourceForm( {
	source,
	busy,
	onRotate,
	onCancel,
}: {
	source: InboundSource;
	busy: boolean;
	onRotate: ( secret: string ) => void;
	onCancel: () => void;
} ) {
	const [ secret, setSecret ] = useState( '' );
	return (
		<form
			className="si-subsection si-panel si-form"
			aria-label={ sprintf(
				/* translators: %s: an endpoint's URL or an inbound source's identifier. */ __(
					'Rotate the secret of %s',
					'service-integration'
				),
				source.id
			) }
			onSubmit={ ( event ) => {
				event.preventDefault();
				onRotate( secret );
			} }
		>
			<h3>
				{ sprintf(
					/* translators: %s: source identifier. */ __( 'New secret for %s', 'service-integration' ),
					source.id
				) }
			</h3>
			<p className="si-help">
				{ __(
					'The current secret stays accepted for 24 hours, so the remote service can switch without a refused delivery.',
					'service-integration'
				) }
			</p>
			<TextControl
				__nextHasNoMarginBottom
				__next40pxDefaultSize
				label={ __( 'New signing secret', 'service-integration' ) }
				help={ secretHelp( String( source.scheme ) ) }
				type="password"
				autoComplete="off"
				value={ secret }
				onChange={ ( value: string ) => setSecret( value ) }
			/>
			<FormButtons submitLabel={ __( 'Rotate', 'service-integration' ) } busy={ busy } onCancel={ onCancel } />
		</form>
	);
}
