import { __ } from '@wordpress/i18n';
import { createServiceAccount, getServiceAccount, resetWidening } from '../api/service-account';
import { ErrorNotice } from '../components/ErrorNotice';
import { LoadingState } from '../components/LoadingState';
import { Section } from '../components/Section';
import { useAction } from '../hooks/use-action';
import { useResource } from '../hooks/use-resource';
import { AccountSummary } from './service-account/AccountSummary';
import { ApplicationPasswords } from './service-account/ApplicationPasswords';
import { CapabilityTable } from './service-account/CapabilityTable';
import { useApplicationPasswords } from './service-account/use-application-passwords';
import { WideningWarning } from './service-account/WideningWarning';

/** The account automation tools log in with, its application passwords and its role. */
export function ServiceAccountSection() {
	const state = useResource( getServiceAccount, [] );
	const action = useAction();
	const passwords = useApplicationPasswords( action, state.reload );

	const create = async () => {
		if ( await action.run( 'create-account', createServiceAccount ) ) {
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
						onForget={ () => void forgetWidening() }
					/>
					<AccountSummary
						state={ state.data }
						busy={ action.busy === 'create-account' }
						onCreate={ () => void create() }
					/>
					{ state.data.account ? (
						<ApplicationPasswords state={ state.data } passwords={ passwords } busy={ action.busy } />
					) : null }
					<CapabilityTable state={ state.data } />
				</>
			) : null }
		</Section>
	);
}
