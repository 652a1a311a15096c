import { __, _x } from '@wordpress/i18n';
import { StatusBadge } from '../../components/StatusBadge';

/** The role is created on its own (activation, or a check on every load): shown whether or not the account exists. */
export function RoleStatus( { exists }: { exists: boolean } ) {
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
