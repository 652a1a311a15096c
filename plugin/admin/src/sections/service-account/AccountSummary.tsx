import { Button } from '@wordpress/components';
import { __ } from '@wordpress/i18n';
import type { ServiceAccountState } from '../../api/service-account';
import { Code } from '../../components/Code';
import { NONE } from '../../components/format';
import { RoleStatus } from './RoleStatus';

interface Props {
	state: ServiceAccountState;
	busy: boolean;
	onCreate: () => void;
}

/** The role's state and the account's user name, email and roles; or the button that creates the account. */
export function AccountSummary( { state, busy, onCreate }: Props ) {
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
