import { Button, Notice } from '@wordpress/components';
import { useId } from '@wordpress/element';
import { __ } from '@wordpress/i18n';
import { CopyButton } from './CopyButton';

export interface SecretField {
	label: string;
	value: string;
	copyLabel: string;
}

interface Props {
	title: string;
	fields: SecretField[];
	onDismiss: () => void;
	/** Extra explanation under the fields. */
	children?: React.ReactNode;
}

/** A secret the server shows only in this answer: read-only fields, copy buttons, a clear warning. */
export function SecretOnce( { title, fields, onDismiss, children }: Props ) {
	const id = useId();
	return (
		<Notice status="success" isDismissible={ false } className="si-notice si-secret-once">
			<div role="region" aria-labelledby={ `${ id }-title` }>
				<p id={ `${ id }-title` } className="si-secret-once__title">
					<strong>{ title }</strong>
				</p>
				<p>
					{ __(
						'Copy it now: it is shown only this once and cannot be displayed again.',
						'service-integration'
					) }
				</p>
				{ fields.map( ( field, index ) => (
					<div className="si-secret-field" key={ field.label }>
						<label htmlFor={ `${ id }-${ index }` }>{ field.label }</label>
						<div className="si-secret-field__row">
							<input
								id={ `${ id }-${ index }` }
								className="si-secret-field__value code"
								type="text"
								readOnly
								value={ field.value }
								onFocus={ ( event ) => event.currentTarget.select() }
								spellCheck={ false }
								autoComplete="off"
							/>
							<CopyButton text={ field.value } label={ field.copyLabel } />
						</div>
					</div>
				) ) }
				{ children }
				<Button variant="secondary" onClick={ onDismiss }>
					{ __( 'I have copied it, hide it', 'service-integration' ) }
				</Button>
			</div>
		</Notice>
	);
}
