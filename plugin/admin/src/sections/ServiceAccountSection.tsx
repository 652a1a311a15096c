import { Button, Notice, TextControl } from '@wordpress/components';
import { useState } from '@wordpress/element';
import { __, _n, _x, sprintf } from '@wordpress/i18n';
import {
	createApplicationPassword,
	createServiceAccount,
	getServiceAccount,
	resetWidening,
	revokeApplicationPassword,
	type CreatedPassword,
	type ServiceAccountState,
} from '../api/service-account';
import { Code } from '../components/Code';
import { ConfirmButton } from '../components/ConfirmButton';
import { DataTable } from '../components/DataTable';
import { ErrorNotice } from '../components/ErrorNotice';
import { formatDateTime, NONE } from '../components/format';
import { LoadingState } from '../components/LoadingState';
import { SecretOnce } from '../components/SecretOnce';
import { Section } from '../components/Section';
import { StatusBadge } from '../components/StatusBadge';
import { useAction } from '../hooks/use-action';
import { useResource } from '../hooks/use-resource';

/** The account automation tools log in with, its application passwords and its role. */
export function ServiceAccountSection() {
	const state = useResource( getServiceAccount, [] );
	const action = useAction();
	const [ passwordName, setPasswordName ] = useState( '' );
	const [ created, setCreated ] = useState< CreatedPassword | null >( null );

	const create = async () => {
		if ( await action.run( 'create-account', createServiceAccount ) ) {
			state.reload();
		}
	};
	const addPassword = async () => {
		const name = passwordName.trim();
		if ( ! name ) {
			action.invalid(
				__(
					'Enter a name for the application password, e.g. the tool that will use it.',
					'service-integration'
				),
				'name'
			);
			return;
		}
		const answer = await action.run( 'create-password', () => createApplicationPassword( name ) );
		if ( answer ) {
			setCreated( answer );
			setPasswordName( '' );
			state.reload();
		}
	};
	const revoke = async ( uuid: string ) => {
		if ( await action.run( `revoke-${ uuid }`, () => revokeApplicationPassword( uuid ) ) ) {
			if ( created?.uuid === uuid ) {
				setCreated( null );
			}
			state.reload();
		}
	};
	const forgetWidening = async () => {
		if ( await action.run( 'reset-widening', resetWidening ) ) {
			state.reload();
		}
	};

	return (
		<Section
			title={ __( 'Service account', 'service-integration' ) }
			description={ __(
				'The account your automation tool (n8n, Make, Zapier, a script) logs in with, using an application password. Its role can create manufacturing orders and read paid orders, and nothing else.',
				'service-integration'
			) }
		>
			{ action.error ? <ErrorNotice error={ action.error } onDismiss={ action.clearError } /> : null }
			{ state.loading && ! state.data ? (
				<LoadingState label={ __( 'Loading the service account…', 'service-integration' ) } />
			) : null }
			{ state.error ? (
				<ErrorNotice
					error={ state.error }
					context={ __( 'Loading the service account', 'service-integration' ) }
					onRetry={ state.reload }
				/>
			) : null }
			{ state.data ? (
				<>
					<WideningWarning
						widening={ state.data.widening_detected }
						busy={ action.busy === 'reset-widening' }
						onForget={ forgetWidening }
					/>
					<Account state={ state.data } busy={ action.busy === 'create-account' } onCreate={ create } />
					{ state.data.account ? (
						<div className="si-subsection">
							<h3>{ __( 'Application passwords', 'service-integration' ) }</h3>
							{ ! state.data.application_passwords_available ? (
								<Notice status="warning" isDismissible={ false }>
									{ __(
										'Application passwords are not available on this site: they need HTTPS, or a local environment (WP_ENVIRONMENT_TYPE "local").',
										'service-integration'
									) }
								</Notice>
							) : null }
							{ created ? (
								<SecretOnce
									title={ sprintf(
										/* translators: %s: name of the application password. */ __(
											'Application password "%s" created',
											'service-integration'
										),
										created.name
									) }
									fields={ [
										{
											label: __( 'User name', 'service-integration' ),
											value: created.username,
											copyLabel: __( 'Copy the user name', 'service-integration' ),
										},
										{
											label: __( 'Application password', 'service-integration' ),
											value: created.password,
											copyLabel: __( 'Copy the password', 'service-integration' ),
										},
										{
											label: __( 'Authorization header value', 'service-integration' ),
											value: created.authorization,
											copyLabel: __( 'Copy the header', 'service-integration' ),
										},
									] }
									onDismiss={ () => setCreated( null ) }
								>
									<p className="si-help">
										{ __(
											'Your tool sends it as the HTTP header "Authorization" (HTTP Basic with the user name and this password).',
											'service-integration'
										) }
									</p>
								</SecretOnce>
							) : null }
							<form
								className="si-inline-form"
								noValidate
								onSubmit={ ( event ) => {
									event.preventDefault();
									void addPassword();
								} }
							>
								<TextControl
									__nextHasNoMarginBottom
									__next40pxDefaultSize
									label={ __( 'Name of the new application password', 'service-integration' ) }
									help={ __(
										'Name it after the tool that will use it, e.g. n8n.',
										'service-integration'
									) }
									value={ passwordName }
									onChange={ ( value: string ) => setPasswordName( value ) }
									maxLength={ 100 }
								/>
								<Button
									variant="primary"
									type="submit"
									isBusy={ action.busy === 'create-password' }
									disabled={ action.busy !== null }
								>
									{ __( 'Create application password', 'service-integration' ) }
								</Button>
							</form>
							<PasswordTable state={ state.data } busy={ action.busy } onRevoke={ revoke } />
						</div>
					) : null }
					<CapabilityTable state={ state.data } />
				</>
			) : null }
		</Section>
	);
}

function WideningWarning( { widening, busy, onForget }: { widening: string[]; busy: boolean; onForget: () => void } ) {
	if ( widening.length === 0 ) {
		return null;
	}
	return (
		<Notice status="error" isDismissible={ false } className="si-notice si-widening">
			<p>
				<strong>{ __( 'Widening detected.', 'service-integration' ) }</strong>{ ' ' }
				{ sprintf(
					/* translators: %s: comma-separated capability names. */
					_n(
						'Another plugin or filter tried to give the integration role a capability it must not have: %s. It is refused; remove its source.',
						'Another plugin or filter tried to give the integration role capabilities it must not have: %s. They are refused; remove their source.',
						widening.length,
						'service-integration'
					),
					widening.join( ', ' )
				) }
			</p>
			<Button variant="secondary" size="compact" isBusy={ busy } disabled={ busy } onClick={ onForget }>
				{ __( 'Forget what was reported', 'service-integration' ) }
			</Button>
		</Notice>
	);
}

/** The role is created on its own (activation, or a check on every load): shown whether or not the account exists. */
function RoleStatus( { exists }: { exists: boolean } ) {
	return (
		<p className="si-role-status" data-role-exists={ exists ? 'yes' : 'no' }>
			{ __( 'Integration role:', 'service-integration' ) }{ ' ' }
			<StatusBadge tone={ exists ? 'success' : 'warning' }>
				{ exists
					? _x( 'Exists', 'integration role state', 'service-integration' )
					: _x( 'Missing', 'integration role state', 'service-integration' ) }
			</StatusBadge>{ ' ' }
			{ exists ? null : __( 'The plugin creates it again on the next page load.', 'service-integration' ) }
		</p>
	);
}

function Account( { state, busy, onCreate }: { state: ServiceAccountState; busy: boolean; onCreate: () => void } ) {
	if ( ! state.account ) {
		return (
			<div className="si-subsection si-account-missing">
				<RoleStatus exists={ state.role_exists } />
				<p>{ __( 'There is no service account yet.', 'service-integration' ) }</p>
				<Button variant="primary" isBusy={ busy } disabled={ busy } onClick={ onCreate }>
					{ __( 'Create the service account', 'service-integration' ) }
				</Button>
			</div>
		);
	}
	return (
		<div className="si-subsection">
			<RoleStatus exists={ state.role_exists } />
			<dl className="si-facts">
				<dt>{ __( 'User name', 'service-integration' ) }</dt>
				<dd>
					<Code className="si-account-username">{ state.account.username }</Code>
				</dd>
				<dt>{ __( 'Email', 'service-integration' ) }</dt>
				<dd>{ state.account.email || NONE }</dd>
				<dt>{ __( 'Roles', 'service-integration' ) }</dt>
				<dd>{ state.account.roles.join( ', ' ) || NONE }</dd>
			</dl>
		</div>
	);
}

function PasswordTable( {
	state,
	busy,
	onRevoke,
}: {
	state: ServiceAccountState;
	busy: string | null;
	onRevoke: ( uuid: string ) => void;
} ) {
	if ( state.application_passwords.length === 0 ) {
		return <p className="si-empty">{ __( 'The account has no application password.', 'service-integration' ) }</p>;
	}
	return (
		<DataTable
			caption={ __( 'Application passwords of the service account', 'service-integration' ) }
			className="si-passwords"
			columns={ [
				{ label: __( 'Name', 'service-integration' ), render: ( password ) => password.name },
				{
					label: __( 'Created', 'service-integration' ),
					render: ( password ) => formatDateTime( password.created ),
				},
				{
					label: __( 'Last used', 'service-integration' ),
					render: ( password ) => formatDateTime( password.last_used ),
				},
				{ label: __( 'Last IP', 'service-integration' ), render: ( password ) => password.last_ip ?? NONE },
				{
					label: __( 'Actions', 'service-integration' ),
					render: ( password ) => (
						<ConfirmButton
							question={ sprintf(
								/* translators: %s: name of the application password. */ __(
									'Revoke "%s"? Tools using it stop working.',
									'service-integration'
								),
								password.name
							) }
							confirmLabel={ __( 'Revoke', 'service-integration' ) }
							label={ sprintf(
								/* translators: %s: name of the application password. */ __(
									'Revoke the application password "%s"',
									'service-integration'
								),
								password.name
							) }
							isBusy={ busy === `revoke-${ password.uuid }` }
							disabled={ busy !== null }
							onConfirm={ () => onRevoke( password.uuid ) }
						>
							{ __( 'Revoke', 'service-integration' ) }
						</ConfirmButton>
					),
				},
			] }
			rows={ state.application_passwords }
			rowKey={ ( password ) => password.uuid }
			rowAttributes={ ( password ) => ( { 'data-uuid': password.uuid } ) }
		/>
	);
}

type CapabilityState = 'ok' | 'widened' | 'missing' | 'removed';

function CapabilityTable( { state }: { state: ServiceAccountState } ) {
	const names = Array.from(
		new Set( [
			...Object.keys( state.expected_capabilities ),
			...Object.keys( state.role_capabilities ),
			...state.widening_detected,
		] )
	);
	const rows = names.map( ( name ) => {
		const expected = state.expected_capabilities[ name ] === true;
		const onRole = name in state.role_capabilities ? state.role_capabilities[ name ] === true : null;
		let verdict: CapabilityState = 'ok';
		if ( state.widening_detected.includes( name ) || ( ! expected && onRole === true ) ) {
			verdict = 'widened';
		} else if ( expected && onRole === null ) {
			verdict = 'missing';
		} else if ( expected && onRole === false ) {
			verdict = 'removed';
		}
		return { name, expected, onRole, verdict };
	} );
	const grantedLabel = ( granted: boolean | null ) => {
		if ( granted === null ) {
			return __( 'not set', 'service-integration' );
		}
		return granted ? __( 'granted', 'service-integration' ) : __( 'denied', 'service-integration' );
	};
	const verdictBadge = ( verdict: CapabilityState ) => {
		switch ( verdict ) {
			case 'widened':
				return <StatusBadge tone="error">{ __( 'Widening (refused)', 'service-integration' ) }</StatusBadge>;
			case 'missing':
				return (
					<StatusBadge tone="warning">
						{ _x( 'Missing', 'capability state', 'service-integration' ) }
					</StatusBadge>
				);
			case 'removed':
				return (
					<StatusBadge tone="warning">
						{ _x( 'Removed', 'capability state', 'service-integration' ) }
					</StatusBadge>
				);
			default:
				return <StatusBadge tone="success">{ __( 'As expected', 'service-integration' ) }</StatusBadge>;
		}
	};

	return (
		<div className="si-subsection">
			<h3>{ __( 'Role capabilities', 'service-integration' ) }</h3>
			<p className="si-help">
				{ __(
					'What the integration role (service_integration) holds, against the list it is built from. Anything beyond that list is refused at run time and flagged here.',
					'service-integration'
				) }
			</p>
			<DataTable
				caption={ __(
					'Capabilities of the integration role against the expected list',
					'service-integration'
				) }
				className="si-capabilities"
				columns={ [
					{
						label: __( 'Capability', 'service-integration' ),
						rowHeader: true,
						render: ( row ) => <Code>{ row.name }</Code>,
					},
					{
						label: __( 'Expected', 'service-integration' ),
						render: ( row ) =>
							grantedLabel( row.name in state.expected_capabilities ? row.expected : null ),
					},
					{
						label: __( 'On the role', 'service-integration' ),
						render: ( row ) => grantedLabel( row.onRole ),
					},
					{ label: __( 'State', 'service-integration' ), render: ( row ) => verdictBadge( row.verdict ) },
				] }
				rows={ rows }
				rowKey={ ( row ) => row.name }
				rowAttributes={ ( row ) => ( {
					className: row.verdict === 'widened' ? 'si-row--flagged' : undefined,
				} ) }
			/>
		</div>
	);
}
