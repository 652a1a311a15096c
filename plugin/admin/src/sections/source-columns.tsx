import { Button } from '@wordpress/components';
import { __, _x, sprintf } from '@wordpress/i18n';
import type { InboundSource } from '../api/inbound';
import { Code, SecretMask } from '../components/Code';
import { CopyButton } from '../components/CopyButton';
import type { Column } from '../components/DataTable';
import { DeleteButton } from '../components/DeleteButton';
import { EnableToggle } from '../components/EnableToggle';
import { formatDateTime, NONE } from '../components/format';
import { StatusBadge } from '../components/StatusBadge';
import { schemeLabel } from './InboundSourceForm';

/** What a source's row does: its buttons, and which change is under way. */
export interface SourceRowContext {
	busy: string | null;
	onRotate: ( source: InboundSource ) => void;
	onToggle: ( source: InboundSource ) => void;
	onDelete: ( source: InboundSource ) => void;
}

/** The inbound sources' columns: the source, its scheme, where it sends, its secret, the actions. */
export function sourceColumns( { busy, onRotate, onToggle, onDelete }: SourceRowContext ): Column< InboundSource >[] {
	return [
		{ label: __( 'Source', 'service-integration' ), render: ( source ) => <SourceName source={ source } /> },
		{ label: __( 'Scheme', 'service-integration' ), render: ( source ) => schemeLabel( String( source.scheme ) ) },
		{
			label: __( 'Receiving URL', 'service-integration' ),
			className: 'si-cell-url',
			render: ( source ) =>
				source.receiving_url ? (
					<>
						<Code className="si-receiving-url">{ source.receiving_url }</Code>{ ' ' }
						<CopyButton
							text={ source.receiving_url }
							label={ sprintf(
								/* translators: %s: source identifier. */ __(
									'Copy the receiving URL of %s',
									'service-integration'
								),
								source.id
							) }
						/>
					</>
				) : (
					NONE
				),
		},
		{ label: __( 'Secret', 'service-integration' ), render: ( source ) => <SourceSecret source={ source } /> },
		{
			label: __( 'Actions', 'service-integration' ),
			className: 'si-row-actions',
			render: ( source ) => (
				<>
					<Button
						variant="secondary"
						size="compact"
						onClick={ () => onRotate( source ) }
						disabled={ busy !== null }
						aria-label={ sprintf(
							/* translators: %s: an endpoint's URL or an inbound source's identifier. */ __(
								'Rotate the secret of %s',
								'service-integration'
							),
							source.id
						) }
					>
						{ __( 'Rotate secret', 'service-integration' ) }
					</Button>
					<EnableToggle
						active={ source.status === 'active' }
						subject={ source.id }
						isBusy={ busy === `toggle-${ source.id }` }
						disabled={ busy !== null }
						onToggle={ () => onToggle( source ) }
					/>
					<DeleteButton
						subject={ source.id }
						question={ __(
							'Delete this source? Its receiving URL stops accepting webhooks.',
							'service-integration'
						) }
						isBusy={ busy === `delete-${ source.id }` }
						disabled={ busy !== null }
						onConfirm={ () => onDelete( source ) }
					/>
				</>
			),
		},
	];
}

function SourceName( { source }: { source: InboundSource } ) {
	return (
		<>
			<strong>{ source.id }</strong>{ ' ' }
			{ source.status === 'active' ? (
				<StatusBadge tone="success">
					{ _x( 'Active', 'inbound source status', 'service-integration' ) }
				</StatusBadge>
			) : (
				<StatusBadge tone="error">
					{ _x( 'Disabled', 'inbound source status', 'service-integration' ) }
				</StatusBadge>
			) }
			{ source.description ? (
				<>
					<br />
					{ source.description }
				</>
			) : null }
			{ source.created_at ? (
				<>
					<br />
					<span className="si-help">
						{ sprintf(
							/* translators: %s: date and time. */ __( 'Added %s', 'service-integration' ),
							formatDateTime( source.created_at )
						) }
					</span>
				</>
			) : null }
		</>
	);
}

function SourceSecret( { source }: { source: InboundSource } ) {
	const [ current, ...previous ] = source.secrets;
	if ( ! current ) {
		return <>{ NONE }</>;
	}
	return (
		<>
			<SecretMask masked={ current.masked } />
			<br />
			<span className="si-help">
				{ current.origin === 'generated'
					? __( 'generated here', 'service-integration' )
					: __( 'given by the service', 'service-integration' ) }
			</span>
			{ previous.length ? (
				<>
					<br />
					<span className="si-help">
						{ sprintf(
							/* translators: %s: date and time. */ __(
								'The previous one is accepted until %s',
								'service-integration'
							),
							formatDateTime( previous[ 0 ]?.expires_at )
						) }
					</span>
				</>
			) : null }
		</>
	);
}
