/** The role's capability list, as documented in docs/api/service-account.md ("The integration role"). */
export const EXPECTED_ROLE_CAPABILITIES = {
	read: true,
	edit_commande_fabrication: true,
	edit_commande_fabrications: true,
	edit_others_commande_fabrications: false,
	publish_commande_fabrications: true,
	edit_published_commande_fabrications: true,
	read_commande_fabrications: true,
	lire_commandes_payees: true,
};

/** Capabilities /me reports with their effective value; the integration must hold none. */
export const SENSITIVE_CAPABILITIES = [
	'edit_posts',
	'edit_shop_orders',
	'list_users',
	'edit_users',
	'create_users',
	'activate_plugins',
	'install_plugins',
	'manage_options',
	'delete_commande_fabrications',
	'edit_others_commande_fabrications',
];
