import { useState } from '@wordpress/element';
import { __, sprintf } from '@wordpress/i18n';
import {
	createSource,
	deleteSource,
	listSources,
	rotateSourceSecret,
	updateSource,
	type InboundSource,
} from '../api/inbound';
import { ActionPanel } from '../components/ActionPanel';
import { AddButton, AddPanel } from '../components/AddPanel';
import { DataTable } from '../components/DataTable';
import { ListScreen } from '../components/ListScreen';
import { useAction } from '../hooks/use-action';
import { useAddPanel } from '../hooks/use-add-panel';
import { useResource } from '../hooks/use-resource';
import { InboundEvents } from './InboundEvents';
import { InboundLog } from './InboundLog';
import { InboundSourceForm } from './InboundSourceForm';
import { RevealedSource, type RevealedSecret } from './RevealedSource';
import { RotateSourceForm } from './RotateSourceForm';
import { sourceColumns } from './source-columns';

/** Receiving sources (remote services that send webhooks here), their events and the verification log. */
export function InboundSection() {
	const sources = useResource( listSources, [] );
	const action = useAction();
	const [ rotating, setRotating ] = useState< InboundSource | null >( null );
	const [ revealed, setRevealed ] = useState< RevealedSecret | null >( null );
	const [ message, setMessage ] = useState< string | null >( null );
	const [ refreshKey, setRefreshKey ] = useState( 0 );

	const refresh = () => {
		sources.reload();
		setRefreshKey( ( n ) => n + 1 );
	};
	const adding = useAddPanel( action, createSource, ( created ) => {
		setMessage( null );
		setRevealed( { source: created, rotated: false } );
		refresh();
	} );
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
		<ActionPanel
			title={ __( 'Inbound sources', 'service-integration' ) }
			description={ __(
				'Remote services (Stripe, GitHub, Shopify, WooCommerce, any Standard Webhooks sender) that send webhooks to this site. Each gets its own receiving URL; every signature is checked, and each event is processed once.',
				'service-integration'
			) }
			refresh={ sources.data && ! notAvailable ? { onRefresh: refresh, busy: sources.loading } : null }
			actions={
				sources.data && ! notAvailable ? (
					<AddButton label={ __( 'Add a source', 'service-integration' ) } panel={ adding } />
				) : null
			}
			message={ message }
			onDismissMessage={ () => setMessage( null ) }
			action={ action }
		>
			{ revealed ? <RevealedSource revealed={ revealed } onDismiss={ () => setRevealed( null ) } /> : null }
			<AddPanel
				title={ __( 'Add a source', 'service-integration' ) }
				panel={ adding }
				action={ action }
				form={ InboundSourceForm }
			/>
			{ rotating ? (
				<RotateSourceForm
					key={ rotating.id }
					source={ rotating }
					busy={ action.busy === `rotate-${ rotating.id }` }
					onRotate={ ( secret ) => void rotate( rotating.id, secret ) }
					onCancel={ () => setRotating( null ) }
				/>
			) : null }
			<ListScreen
				resource={ sources }
				items={ ( data ) => data }
				labels={ {
					loading: __( 'Loading the sources…', 'service-integration' ),
					error: __( 'Loading the sources', 'service-integration' ),
					empty: __(
						'No source yet. Add one for each service that sends webhooks to this site.',
						'service-integration'
					),
				} }
			>
				{ ( rows ) => (
					<DataTable
						caption={ __( 'Inbound sources', 'service-integration' ) }
						className="si-sources"
						columns={ sourceColumns( {
							busy: action.busy,
							onRotate: setRotating,
							onToggle: ( source ) => void setActive( source, source.status !== 'active' ),
							onDelete: ( source ) => void remove( source.id ),
						} ) }
						rows={ rows }
						rowKey={ ( source ) => source.id }
						rowAttributes={ ( source ) => ( {
							'data-source-id': source.id,
							className: source.status === 'active' ? undefined : 'si-row--muted',
						} ) }
					/>
				) }
			</ListScreen>
			{ /* The received events live in WordPress: shown even when the sidecar (the sources, the log) does not answer. */ }
			{ ! notAvailable && ( sources.data || sources.error ) ? (
				<InboundEvents sources={ sources.data ?? [] } refreshKey={ refreshKey } />
			) : null }
			{ sources.data && ! sources.error ? (
				<InboundLog sources={ sources.data } refreshKey={ refreshKey } />
			) : null }
		</ActionPanel>
	);
}
