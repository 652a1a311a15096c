import { useState } from '@wordpress/element';
import type { Action } from './use-action';

/** The busy key of the creation an add panel runs. */
export const ADDING = 'add';

/** A section's add panel: whether it is open, and what opening, closing and submitting it do. */
export interface AddPanelState< Input > {
	open: boolean;
	start: () => void;
	cancel: () => void;
	submit: ( input: Input ) => void;
}

/**
 * Opens and closes a list section's add panel and runs its creation through the section's
 * action; the panel closes once the item is created, before `onCreated` is told.
 */
export function useAddPanel< Input, Created >(
	action: Action,
	create: ( input: Input ) => Promise< Created >,
	onCreated: ( created: Created ) => void
): AddPanelState< Input > {
	const [ open, setOpen ] = useState( false );
	const submit = async ( input: Input ) => {
		const created = await action.run( ADDING, () => create( input ) );
		if ( created ) {
			setOpen( false );
			onCreated( created );
		}
	};
	return {
		open,
		start: () => setOpen( true ),
		cancel: () => setOpen( false ),
		submit: ( input ) => void submit( input ),
	};
}
