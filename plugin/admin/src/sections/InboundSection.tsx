import { Button, Notice, TextControl } from '@wordpress/components';
import { useState } from '@wordpress/element';
import { __, _x, sprintf } from '@wordpress/i18n';
import {
	createSource,
	deleteSource,
	listSources,
	rotateSourceSecret,
	updateSource,
	type InboundSource,
	type InboundSourceInput,
	type InboundSourceWithSecret,
} from '../api/inbound';
import { Code, SecretMask } from '../components/Code';
import { ConfirmButton } from '../components/ConfirmButton';
import { CopyButton } from '../components/CopyButton';
import { EnableToggle } from '../components/EnableToggle';
import { ErrorNotice } from '../components/ErrorNotice';
import { formatDateTime, NONE } from '../components/format';
import { LoadingState } from '../components/LoadingState';
import { ResponsiveTable } from '../components/ResponsiveTable';
import { SecretOnce, type SecretField } from '../components/SecretOnce';
import { Section } from '../components/Section';
import { StatusBadge } from '../components/StatusBadge';
import { useAction } from '../hooks/use-action';
import { useResource } from '../hooks/use-resource';
import { InboundEvents } from './InboundEvents';
import { InboundLog } from './InboundLog';
import { InboundSourceForm, schemeLabel, secretHelp } from './InboundSourceForm';

interface Revealed {
	source: InboundSourceWithSecret;
	rotated: boolean;
}

/** Receiving sources (remote services that send webhooks here), their events and the verification log. */
export function InboundSection() {
	const sources = useResource( listSources, [] );
	const action = useAction();
	const [ adding, setAdding ] = useState( false );
	const [ rotating, setRotating ] = useState< InboundSource | null >( null );
	const [ revealed, setRevealed ] = useState< Revealed | null >( null );
	const [ message, setMessage ] = useState< string | null >( null );
	const [ refreshKey, setRefreshKey ] = useState( 0 );

	const refresh = () => {
		sources.reload();
		setRefreshKey( ( n ) => n + 1 );
	};
	const add = async ( input: InboundSourceInput ) => {
		const created = await action.run( 'add', () => createSource( input ) );
		if ( created ) {
			setAdding( false );
			setMessage( null );
			setRevealed( { source: created, rotated: false } );
			refresh();
		}
	};
	const rotate = async ( id: string, secret: string ) => {
		const rotated = await action.run( `rotate-${ id }`, () =>
			rotateSourceSecret( id, secret.trim() || undefined )
		);
		if ( rotated ) {
			setRotating( null );
			setRevealed( { source: rotated, rotated: true } );
			refresh();
		}
	};
	const setActive = async ( source: InboundSource, active: boolean ) => {
		if (
			await action.run( `toggle-${ source.id }`, () =>
				updateSource( source.id, { status: active ? 'active' : 'disabled' } )
			)
		) {
			setMessage(
				active
					? sprintf(
							/* translators: %s: source identifier. */ __( 'Source %s enabled.', 'service-integration' ),
							source.id
						)
					: sprintf(
							/* translators: %s: source identifier. */ __(
								'Source %s disabled: its receiving URL refuses webhooks until it is enabled again.',
								'service-integration'
							),
							source.id
						)
			);
			refresh();
		}
	};
	const remove = async ( id: string ) => {
		if ( await action.run( `delete-${ id }`, () => deleteSource( id ) ) ) {
			if ( revealed?.source.id === id ) {
				setRevealed( null );
			}
			setMessage(
				sprintf(
					/* translators: %s: source identifier. */ __( 'Source %s deleted.', 'service-integration' ),
					id
				)
			);
			refresh();
		}
	};

	const notAvailable = sources.error?.code === 'rest_no_route';

	return (
		<Section
			title={ __( 'Inbound sources', 'service-integration' ) }
			description={ __(
				'Remote services (Stripe, GitHub, Shopify, WooCommerce, any Standard Webhooks sender) that send webhooks to this site. Each gets its own receiving URL; every signature is checked, and each event is processed once.',
				'service-integration'
			) }
			actions={
				sources.data && ! notAvailable ? (
					<>
						<Button
							variant="secondary"
							size="compact"
							onClick={ refresh }
							isBusy={ sources.loading }
							disabled={ sources.loading }
						>
							{ __( 'Refresh', 'service-integration' ) }
						</Button>
						{ ! adding ? (
							<Button variant="primary" size="compact" onClick={ () => setAdding( true ) }>
								{ __( 'Add a source', 'service-integration' ) }
							</Button>
						) : null }
					</>
				) : null
			}
		>
			{ sources.loading && ! sources.data && ! sources.error ? (
				<LoadingState label={ __( 'Loading the sources…', 'service-integration' ) } />
			) : null }
			{ sources.error ? (
				<ErrorNotice
					error={ sources.error }
					context={ __( 'Loading the sources', 'service-integration' ) }
					onRetry={ sources.reload }
				/>
			) : null }
			{ message ? (
				<Notice status="success" onRemove={ () => setMessage( null ) } className="si-notice">
					{ message }
				</Notice>
			) : null }
			{ action.error ? <ErrorNotice error={ action.error } onDismiss={ action.clearError } /> : null }
			{ revealed ? <RevealedSource revealed={ revealed } onDismiss={ () => setRevealed( null ) } /> : null }
			{ adding ? (
				<div className="si-subsection si-panel">
					<h3>{ __( 'Add a source', 'service-integration' ) }</h3>
					<InboundSourceForm
						busy={ action.busy === 'add' }
						onSubmit={ ( input ) => void add( input ) }
						onInvalid={ action.invalid }
						onCancel={ () => setAdding( false ) }
					/>
				</div>
			) : null }
			{ rotating ? (
				<RotatePanel
					key={ rotating.id }
					source={ rotating }
					busy={ action.busy === `rotate-${ rotating.id }` }
					onRotate={ ( secret ) => void rotate( rotating.id, secret ) }
					onCancel={ () => setRotating( null ) }
				/>
			) : null }
			{ sources.data && ! sources.error ? (
				<>
					{ sources.data.length === 0 ? (
						<p className="si-empty">
							{ __(
								'No source yet. Add one for each service that sends webhooks to this site.',
								'service-integration'
							) }
						</p>
					) : (
						<ResponsiveTable
							caption={ __( 'Inbound sources', 'service-integration' ) }
							className="si-sources"
						>
							<thead>
								<tr>
									<th scope="col">{ __( 'Source', 'service-integration' ) }</th>
									<th scope="col">{ __( 'Scheme', 'service-integration' ) }</th>
									<th scope="col">{ __( 'Receiving URL', 'service-integration' ) }</th>
									<th scope="col">{ __( 'Secret', 'service-integration' ) }</th>
									<th scope="col">{ __( 'Actions', 'service-integration' ) }</th>
								</tr>
							</thead>
							<tbody>
								{ sources.data.map( ( source ) => (
									<SourceRow
										key={ source.id }
										source={ source }
										busy={ action.busy }
										onRotate={ () => setRotating( source ) }
										onToggle={ () => void setActive( source, source.status !== 'active' ) }
										onDelete={ () => void remove( source.id ) }
									/>
								) ) }
							</tbody>
						</ResponsiveTable>
					) }
				</>
			) : null }
			{ /* The received events live in WordPress: shown even when the sidecar (the sources, the log) does not answer. */ }
			{ ! notAvailable && ( sources.data || sources.error ) ? (
				<InboundEvents sources={ sources.data ?? [] } refreshKey={ refreshKey } />
			) : null }
			{ sources.data && ! sources.error ? (
				<InboundLog sources={ sources.data } refreshKey={ refreshKey } />
			) : null }
		</Section>
	);
}

interface RowProps {
	source: InboundSource;
	busy: string | null;
	onRotate: () => void;
	onToggle: () => void;
	onDelete: () => void;
}

function SourceRow( { source, busy, onRotate, onToggle, onDelete }: RowProps ) {
	const active = source.status === 'active';
	const [ current, ...previous ] = source.secrets;
	return (
		<tr data-source-id={ source.id } className={ active ? undefined : 'si-row--muted' }>
			<td>
				<strong>{ source.id }</strong>{ ' ' }
				{ active ? (
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
			</td>
			<td>{ schemeLabel( String( source.scheme ) ) }</td>
			<td className="si-cell-url">
				{ source.receiving_url ? (
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
				) }
			</td>
			<td>
				{ current ? <SecretMask masked={ current.masked } /> : NONE }
				{ current ? (
					<>
						<br />
						<span className="si-help">
							{ current.origin === 'generated'
								? __( 'generated here', 'service-integration' )
								: __( 'given by the service', 'service-integration' ) }
						</span>
					</>
				) : null }
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
			</td>
			<td className="si-row-actions">
				<Button
					variant="secondary"
					size="compact"
					onClick={ onRotate }
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
					active={ active }
					subject={ source.id }
					isBusy={ busy === `toggle-${ source.id }` }
					disabled={ busy !== null }
					onToggle={ onToggle }
				/>
				<ConfirmButton
					question={ __(
						'Delete this source? Its receiving URL stops accepting webhooks.',
						'service-integration'
					) }
					confirmLabel={ __( 'Delete', 'service-integration' ) }
					label={ sprintf(
						/* translators: %s: an endpoint's URL or an inbound source's identifier. */ __(
							'Delete %s',
							'service-integration'
						),
						source.id
					) }
					isBusy={ busy === `delete-${ source.id }` }
					disabled={ busy !== null }
					onConfirm={ onDelete }
				>
					{ __( 'Delete', 'service-integration' ) }
				</ConfirmButton>
			</td>
		</tr>
	);
}

function RotatePanel( {
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
			<div className="si-form__buttons">
				<Button variant="primary" type="submit" isBusy={ busy } disabled={ busy }>
					{ __( 'Rotate', 'service-integration' ) }
				</Button>
				<Button variant="tertiary" onClick={ onCancel }>
					{ __( 'Cancel', 'service-integration' ) }
				</Button>
			</div>
		</form>
	);
}

function RevealedSource( { revealed, onDismiss }: { revealed: Revealed; onDismiss: () => void } ) {
	const { source, rotated } = revealed;
	const title = rotated
		? sprintf(
				/* translators: %s: source identifier. */ __( 'New secret for %s saved', 'service-integration' ),
				source.id
			)
		: sprintf(
				/* translators: %s: source identifier. */ __( 'Source %s added', 'service-integration' ),
				source.id
			);
	if ( ! source.secret ) {
		// The remote service's own secret: nothing to reveal, only where to send.
		return (
			<Notice status="success" onRemove={ onDismiss } className="si-notice si-source-saved">
				<p>
					<strong>{ title }</strong>
				</p>
				{ source.receiving_url ? (
					<p>
						{ __( 'Give the remote service this receiving URL:', 'service-integration' ) }{ ' ' }
						<Code>{ source.receiving_url }</Code>{ ' ' }
						<CopyButton
							text={ source.receiving_url }
							label={ __( 'Copy the URL', 'service-integration' ) }
						/>
					</p>
				) : null }
			</Notice>
		);
	}
	const fields: SecretField[] = [
		{
			label: __( 'Signing secret', 'service-integration' ),
			value: source.secret,
			copyLabel: __( 'Copy the secret', 'service-integration' ),
		},
	];
	if ( source.receiving_url ) {
		fields.unshift( {
			label: __( 'Receiving URL', 'service-integration' ),
			value: source.receiving_url,
			copyLabel: __( 'Copy the URL', 'service-integration' ),
		} );
	}
	return (
		<SecretOnce title={ title } fields={ fields } onDismiss={ onDismiss }>
			<p className="si-help">
				{ __( 'Give the remote service the receiving URL and this signing secret.', 'service-integration' ) }
			</p>
		</SecretOnce>
	);
}
