import { useState } from '@wordpress/element';
import { __, sprintf } from '@wordpress/i18n';
import {
	createEndpoint,
	deleteEndpoint,
	disableEndpoint,
	enableEndpoint,
	listEndpoints,
	rotateEndpointSecret,
	sendTestEvent,
	updateEndpoint,
	type EndpointInput,
} from '../api/webhooks';
import { ActionPanel } from '../components/ActionPanel';
import { AddButton, AddPanel } from '../components/AddPanel';
import { ListScreen } from '../components/ListScreen';
import { useAction } from '../hooks/use-action';
import { useAddPanel } from '../hooks/use-add-panel';
import { useResource } from '../hooks/use-resource';
import { EndpointCard } from './EndpointCard';
import { EndpointForm } from './EndpointForm';
import { endpointToggleMessage } from './endpoint-toggle-message';
import { ReplayRangeForm } from './ReplayRangeForm';
import { RevealedEndpoint, type RevealedSecret } from './RevealedEndpoint';

/** Outbound webhook endpoints: add, edit, rotate the secret, disable/enable, replay a time range, delete; their health. */
export function EndpointsSection() {
	const endpoints = useResource( listEndpoints, [] );
	const action = useAction();
	const [ editing, setEditing ] = useState< string | null >( null );
	const [ replaying, setReplaying ] = useState< string | null >( null );
	const [ revealed, setRevealed ] = useState< RevealedSecret | null >( null );
	const [ message, setMessage ] = useState< string | null >( null );

	const done = ( text: string | null ) => {
		setMessage( text );
		endpoints.reload();
	};

	const adding = useAddPanel( action, createEndpoint, ( created ) => {
		setRevealed( { endpoint: created, rotated: false } );
		done( null );
	} );
	const save = async ( id: string, input: EndpointInput ) => {
		if ( await action.run( `edit-${ id }`, () => updateEndpoint( id, input ) ) ) {
			setEditing( null );
			done( __( 'Endpoint saved.', 'service-integration' ) );
		}
	};
	const rotate = async ( id: string ) => {
		const rotated = await action.run( `rotate-${ id }`, () => rotateEndpointSecret( id ) );
		if ( rotated ) {
			setRevealed( { endpoint: rotated, rotated: true } );
			done( null );
		}
	};
	const setEnabled = async ( id: string, enabled: boolean, redeliver?: boolean ) => {
		// Disabling requeues and skips nothing: its answer is the endpoint alone.
		const answer = await action.run( redeliver ? `resend-${ id }` : `toggle-${ id }`, async () =>
			enabled ? enableEndpoint( id, redeliver ) : { ...( await disableEndpoint( id ) ), requeued: 0, skipped: 0 }
		);
		if ( answer ) {
			done( endpointToggleMessage( enabled, answer.requeued, answer.skipped ) );
		}
	};
	const test = async ( id: string ) => {
		const sent = await action.run( `test-${ id }`, () => sendTestEvent( id ) );
		if ( sent ) {
			done(
				sprintf(
					/* translators: %s: event id. */ __(
						'Test event %s queued: it is signed and sent like an order event, to this endpoint only. Its delivery shows under Deliveries.',
						'service-integration'
					),
					sent.event_id
				)
			);
		}
	};
	const remove = async ( id: string ) => {
		if ( await action.run( `delete-${ id }`, () => deleteEndpoint( id ) ) ) {
			if ( revealed?.endpoint.id === id ) {
				setRevealed( null );
			}
			done( __( 'Endpoint deleted, with its delivery history.', 'service-integration' ) );
		}
	};

	const notAvailable = endpoints.error?.code === 'rest_no_route';

	return (
		<ActionPanel
			title={ __( 'Outbound endpoints', 'service-integration' ) }
			description={ __(
				'The URLs that receive signed order webhooks (Standard Webhooks). The sidecar retries failed deliveries with backoff and disables an endpoint that keeps failing.',
				'service-integration'
			) }
			refresh={
				endpoints.data && ! notAvailable ? { onRefresh: endpoints.reload, busy: endpoints.loading } : null
			}
			actions={
				endpoints.data && ! notAvailable ? (
					<AddButton label={ __( 'Add an endpoint', 'service-integration' ) } panel={ adding } />
				) : null
			}
			message={ message }
			onDismissMessage={ () => setMessage( null ) }
			action={ action }
		>
			{ revealed ? <RevealedEndpoint revealed={ revealed } onDismiss={ () => setRevealed( null ) } /> : null }
			<AddPanel
				title={ __( 'Add an endpoint', 'service-integration' ) }
				panel={ adding }
				action={ action }
				form={ EndpointForm }
			/>
			<ListScreen
				resource={ endpoints }
				items={ ( data ) => data }
				labels={ {
					loading: __( 'Loading the endpoints…', 'service-integration' ),
					error: __( 'Loading the endpoints', 'service-integration' ),
					empty: __( 'No endpoint yet. Add one to start sending order webhooks.', 'service-integration' ),
				} }
			>
				{ ( list ) => (
					<ul className="si-endpoints">
						{ list.map( ( endpoint ) => (
							<li key={ endpoint.id }>
								{ editing === endpoint.id ? (
									<div className="si-endpoint si-panel">
										<EndpointForm
											initial={ endpoint }
											busy={ action.busy === `edit-${ endpoint.id }` }
											onSubmit={ ( input ) => void save( endpoint.id, input ) }
											onInvalid={ action.invalid }
											onCancel={ () => setEditing( null ) }
										/>
									</div>
								) : (
									<EndpointCard
										endpoint={ endpoint }
										busy={ action.busy }
										onEdit={ () => setEditing( endpoint.id ) }
										onRotate={ () => void rotate( endpoint.id ) }
										onToggle={ () => void setEnabled( endpoint.id, endpoint.status !== 'active' ) }
										onResend={ () => void setEnabled( endpoint.id, true, true ) }
										onTest={ () => void test( endpoint.id ) }
										onDelete={ () => void remove( endpoint.id ) }
										replaying={ replaying === endpoint.id }
										onReplay={ () =>
											setReplaying( replaying === endpoint.id ? null : endpoint.id )
										}
									/>
								) }
								{ replaying === endpoint.id &&
								editing !== endpoint.id &&
								endpoint.status === 'active' ? (
									<ReplayRangeForm
										endpoint={ endpoint }
										action={ action }
										onClose={ () => setReplaying( null ) }
									/>
								) : null }
							</li>
						) ) }
					</ul>
				) }
			</ListScreen>
		</ActionPanel>
	);
}
