/**
 * Type declarations for the parts of React the admin page and the @wordpress/* type
 * definitions use.
 *
 * Why this file exists: the project has no `@types/react` (the lockfile is fixed), and
 * the admin page never imports React itself: `@wordpress/element` wraps it and, in the
 * build, `react`, `react/jsx-runtime` and `@wordpress/*` are externals served by WordPress
 * (React 18). Without declarations, `tsc` cannot type JSX and every @wordpress/* type that
 * mentions React collapses to `any`. This is a faithful subset of @types/react 18; if the
 * project later adds `@types/react` as a dev dependency, delete this file.
 *
 * Ambient (no top-level import/export), so `declare module` declares, not augments.
 */

declare module 'react' {
	// ---------------------------------------------------------------- basics
	export type Key = string | number | bigint;

	export interface ReactElement< P = any, T extends string | JSXElementConstructor< any > = string | JSXElementConstructor< any > > {
		type: T;
		props: P;
		key: string | null;
	}

	export interface ReactPortal extends ReactElement {
		children: ReactNode;
	}

	export type ReactNode = ReactElement | string | number | bigint | Iterable< ReactNode > | ReactPortal | boolean | null | undefined;

	export type JSXElementConstructor< P > = ( ( props: P ) => ReactNode ) | ( new ( props: P ) => Component< any, any > );

	export interface RefObject< T > {
		readonly current: T | null;
	}
	export interface MutableRefObject< T > {
		current: T;
	}
	export type RefCallback< T > = ( instance: T | null ) => void | ( () => void );
	export type Ref< T > = RefCallback< T > | RefObject< T > | null;
	export type LegacyRef< T > = string | Ref< T >;
	export type ForwardedRef< T > = ( ( instance: T | null ) => void ) | MutableRefObject< T | null > | null;

	export interface Attributes {
		key?: Key | null | undefined;
	}
	export interface RefAttributes< T > extends Attributes {
		ref?: Ref< T > | undefined;
	}
	export interface ClassAttributes< T > extends Attributes {
		ref?: LegacyRef< T > | undefined;
	}

	export type PropsWithChildren< P = unknown > = P & { children?: ReactNode | undefined };
	export type PropsWithoutRef< P > = P extends any ? ( 'ref' extends keyof P ? Omit< P, 'ref' > : P ) : P;
	export type PropsWithRef< P > = P;

	export class Component< P = {}, S = {} > {
		constructor( props: P );
		readonly props: Readonly< P >;
		state: Readonly< S >;
		context: unknown;
		setState< K extends keyof S >( state: ( ( prevState: Readonly< S >, props: Readonly< P > ) => Pick< S, K > | S | null ) | ( Pick< S, K > | S | null ), callback?: () => void ): void;
		forceUpdate( callback?: () => void ): void;
		render(): ReactNode;
	}
	export class PureComponent< P = {}, S = {} > extends Component< P, S > {}

	export interface FunctionComponent< P = {} > {
		( props: P ): ReactNode;
		displayName?: string | undefined;
	}
	export type FC< P = {} > = FunctionComponent< P >;
	export interface ComponentClass< P = {}, S = any > {
		new ( props: P ): Component< P, S >;
		displayName?: string | undefined;
	}
	export type ComponentType< P = {} > = ComponentClass< P > | FunctionComponent< P >;

	export interface ExoticComponent< P = {} > {
		( props: P ): ReactNode;
		readonly $$typeof: symbol;
	}
	export interface NamedExoticComponent< P = {} > extends ExoticComponent< P > {
		displayName?: string | undefined;
	}
	export interface ForwardRefExoticComponent< P > extends NamedExoticComponent< P > {}
	export interface MemoExoticComponent< T extends ComponentType< any > > extends NamedExoticComponent< ComponentProps< T > > {
		readonly type: T;
	}
	export interface LazyExoticComponent< T extends ComponentType< any > > extends ExoticComponent< ComponentProps< T > > {
		readonly _result: T;
	}
	export interface ForwardRefRenderFunction< T, P = {} > {
		( props: P, ref: ForwardedRef< T > ): ReactNode;
		displayName?: string | undefined;
	}

	export type ElementType< P = any > =
		| { [ K in keyof JSX.IntrinsicElements ]: P extends JSX.IntrinsicElements[ K ] ? K : never }[ keyof JSX.IntrinsicElements ]
		| ComponentType< P >;

	export type ComponentProps< T extends keyof JSX.IntrinsicElements | JSXElementConstructor< any > > = T extends JSXElementConstructor< infer P >
		? P
		: T extends keyof JSX.IntrinsicElements
		? JSX.IntrinsicElements[ T ]
		: {};
	export type ComponentPropsWithRef< T extends ElementType > = T extends new ( props: infer P ) => Component< any, any > ? PropsWithoutRef< P > & RefAttributes< InstanceType< T > > : PropsWithRef< ComponentProps< T > >;
	export type ComponentPropsWithoutRef< T extends ElementType > = PropsWithoutRef< ComponentProps< T > >;

	export interface Context< T > {
		Provider: ExoticComponent< { value: T; children?: ReactNode | undefined } >;
		Consumer: ExoticComponent< { children: ( value: T ) => ReactNode } >;
		displayName?: string | undefined;
	}

	export interface ChildrenApi {
		map< T, C >( children: C | readonly C[], fn: ( child: C, index: number ) => T ): C extends null | undefined ? C : Array< Exclude< T, boolean | null | undefined > >;
		forEach< C >( children: C | readonly C[], fn: ( child: C, index: number ) => void ): void;
		count( children: any ): number;
		only< C >( children: C ): C extends any[] ? never : C;
		toArray( children: ReactNode | ReactNode[] ): Array< Exclude< ReactNode, boolean | null | undefined > >;
	}

	// ---------------------------------------------------------------- hooks and API
	export type Dispatch< A > = ( value: A ) => void;
	export type SetStateAction< S > = S | ( ( prevState: S ) => S );
	export type Reducer< S, A > = ( prevState: S, action: A ) => S;
	export type DependencyList = readonly unknown[];
	export type EffectCallback = () => void | ( () => void );
	export type TransitionFunction = () => void;
	export type TransitionStartFunction = ( callback: TransitionFunction ) => void;

	export function useState< S >( initialState: S | ( () => S ) ): [ S, Dispatch< SetStateAction< S > > ];
	export function useState< S = undefined >(): [ S | undefined, Dispatch< SetStateAction< S | undefined > > ];
	export function useReducer< S, A >( reducer: Reducer< S, A >, initialState: S ): [ S, Dispatch< A > ];
	export function useReducer< S, A, I >( reducer: Reducer< S, A >, initialArg: I, init: ( arg: I ) => S ): [ S, Dispatch< A > ];
	export function useEffect( effect: EffectCallback, deps?: DependencyList ): void;
	export function useLayoutEffect( effect: EffectCallback, deps?: DependencyList ): void;
	export function useInsertionEffect( effect: EffectCallback, deps?: DependencyList ): void;
	// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
	export function useCallback< T extends Function >( callback: T, deps: DependencyList ): T;
	export function useMemo< T >( factory: () => T, deps: DependencyList ): T;
	export function useRef< T >( initialValue: T ): MutableRefObject< T >;
	export function useRef< T >( initialValue: T | null ): RefObject< T >;
	export function useRef< T = undefined >(): MutableRefObject< T | undefined >;
	export function useContext< T >( context: Context< T > ): T;
	export function useId(): string;
	export function useDebugValue< T >( value: T, format?: ( value: T ) => any ): void;
	export function useDeferredValue< T >( value: T ): T;
	export function useTransition(): [ boolean, TransitionStartFunction ];
	export function useSyncExternalStore< S >( subscribe: ( onStoreChange: () => void ) => () => void, getSnapshot: () => S, getServerSnapshot?: () => S ): S;
	export function useImperativeHandle< T, R extends T >( ref: Ref< T > | undefined, init: () => R, deps?: DependencyList ): void;
	export function startTransition( scope: TransitionFunction ): void;

	export function createContext< T >( defaultValue: T ): Context< T >;
	export function createElement< P extends {} >( type: string | JSXElementConstructor< P >, props?: ( Attributes & P ) | null, ...children: ReactNode[] ): ReactElement< P >;
	export function cloneElement< P >( element: ReactElement< P >, props?: Partial< P > & Attributes, ...children: ReactNode[] ): ReactElement< P >;
	export function isValidElement< P >( object: {} | null | undefined ): object is ReactElement< P >;
	export function createRef< T >(): RefObject< T >;
	export function forwardRef< T, P = {} >( render: ForwardRefRenderFunction< T, P > ): ForwardRefExoticComponent< PropsWithoutRef< P > & RefAttributes< T > >;
	export function memo< T extends ComponentType< any > >( component: T, propsAreEqual?: ( prev: Readonly< ComponentProps< T > >, next: Readonly< ComponentProps< T > > ) => boolean ): MemoExoticComponent< T >;
	export function lazy< T extends ComponentType< any > >( factory: () => Promise< { default: T } > ): LazyExoticComponent< T >;
	export const Children: ChildrenApi;
	export const Fragment: ExoticComponent< { children?: ReactNode | undefined } >;
	export const StrictMode: ExoticComponent< { children?: ReactNode | undefined } >;
	export const Suspense: ExoticComponent< { children?: ReactNode | undefined; fallback?: ReactNode } >;

	// ---------------------------------------------------------------- events
	export interface BaseSyntheticEvent< E = object, C = any, T = any > {
		nativeEvent: E;
		currentTarget: C;
		target: T;
		bubbles: boolean;
		cancelable: boolean;
		defaultPrevented: boolean;
		eventPhase: number;
		isTrusted: boolean;
		preventDefault(): void;
		isDefaultPrevented(): boolean;
		stopPropagation(): void;
		isPropagationStopped(): boolean;
		persist(): void;
		timeStamp: number;
		type: string;
	}
	export interface SyntheticEvent< T = Element, E = Event > extends BaseSyntheticEvent< E, EventTarget & T, EventTarget > {}
	export interface UIEvent< T = Element, E = globalThis.UIEvent > extends SyntheticEvent< T, E > {
		detail: number;
	}
	export interface MouseEvent< T = Element, E = globalThis.MouseEvent > extends UIEvent< T, E > {
		altKey: boolean;
		button: number;
		buttons: number;
		clientX: number;
		clientY: number;
		ctrlKey: boolean;
		metaKey: boolean;
		pageX: number;
		pageY: number;
		relatedTarget: EventTarget | null;
		screenX: number;
		screenY: number;
		shiftKey: boolean;
		getModifierState( key: string ): boolean;
	}
	export interface PointerEvent< T = Element > extends MouseEvent< T, globalThis.PointerEvent > {
		pointerId: number;
		pointerType: 'mouse' | 'pen' | 'touch';
		isPrimary: boolean;
	}
	export interface DragEvent< T = Element > extends MouseEvent< T, globalThis.DragEvent > {
		dataTransfer: DataTransfer;
	}
	export interface TouchEvent< T = Element > extends UIEvent< T, globalThis.TouchEvent > {
		touches: TouchList;
		changedTouches: TouchList;
		targetTouches: TouchList;
	}
	export interface WheelEvent< T = Element > extends MouseEvent< T, globalThis.WheelEvent > {
		deltaX: number;
		deltaY: number;
		deltaZ: number;
		deltaMode: number;
	}
	export interface KeyboardEvent< T = Element > extends UIEvent< T, globalThis.KeyboardEvent > {
		altKey: boolean;
		ctrlKey: boolean;
		metaKey: boolean;
		shiftKey: boolean;
		code: string;
		key: string;
		repeat: boolean;
		getModifierState( key: string ): boolean;
	}
	export interface FocusEvent< Target = Element, RelatedTarget = Element > extends SyntheticEvent< Target, globalThis.FocusEvent > {
		relatedTarget: ( EventTarget & RelatedTarget ) | null;
		target: EventTarget & Target;
	}
	export interface FormEvent< T = Element > extends SyntheticEvent< T > {}
	export interface ChangeEvent< T = Element > extends SyntheticEvent< T > {
		target: EventTarget & T;
	}
	export interface InputEvent< T = Element > extends SyntheticEvent< T, globalThis.InputEvent > {
		data: string;
	}
	export interface ClipboardEvent< T = Element > extends SyntheticEvent< T, globalThis.ClipboardEvent > {
		clipboardData: DataTransfer;
	}
	export interface CompositionEvent< T = Element > extends SyntheticEvent< T, globalThis.CompositionEvent > {
		data: string;
	}
	export interface AnimationEvent< T = Element > extends SyntheticEvent< T, globalThis.AnimationEvent > {
		animationName: string;
		elapsedTime: number;
	}
	export interface TransitionEvent< T = Element > extends SyntheticEvent< T, globalThis.TransitionEvent > {
		propertyName: string;
		elapsedTime: number;
	}

	type EventHandler< E extends SyntheticEvent< any > > = { bivarianceHack( event: E ): void }[ 'bivarianceHack' ];
	export type ReactEventHandler< T = Element > = EventHandler< SyntheticEvent< T > >;
	export type MouseEventHandler< T = Element > = EventHandler< MouseEvent< T > >;
	export type PointerEventHandler< T = Element > = EventHandler< PointerEvent< T > >;
	export type DragEventHandler< T = Element > = EventHandler< DragEvent< T > >;
	export type TouchEventHandler< T = Element > = EventHandler< TouchEvent< T > >;
	export type WheelEventHandler< T = Element > = EventHandler< WheelEvent< T > >;
	export type KeyboardEventHandler< T = Element > = EventHandler< KeyboardEvent< T > >;
	export type FocusEventHandler< T = Element > = EventHandler< FocusEvent< T > >;
	export type FormEventHandler< T = Element > = EventHandler< FormEvent< T > >;
	export type ChangeEventHandler< T = Element > = EventHandler< ChangeEvent< T > >;
	export type InputEventHandler< T = Element > = EventHandler< InputEvent< T > >;
	export type ClipboardEventHandler< T = Element > = EventHandler< ClipboardEvent< T > >;
	export type CompositionEventHandler< T = Element > = EventHandler< CompositionEvent< T > >;
	export type AnimationEventHandler< T = Element > = EventHandler< AnimationEvent< T > >;
	export type TransitionEventHandler< T = Element > = EventHandler< TransitionEvent< T > >;
	export type UIEventHandler< T = Element > = EventHandler< UIEvent< T > >;

	// ---------------------------------------------------------------- DOM attributes
	export interface CSSProperties {
		[ property: string ]: string | number | undefined;
	}

	type Booleanish = boolean | 'true' | 'false';

	export type AriaRole = string;

	export interface AriaAttributes {
		'aria-activedescendant'?: string | undefined;
		'aria-atomic'?: Booleanish | undefined;
		'aria-autocomplete'?: 'none' | 'inline' | 'list' | 'both' | undefined;
		'aria-busy'?: Booleanish | undefined;
		'aria-checked'?: boolean | 'false' | 'mixed' | 'true' | undefined;
		'aria-colcount'?: number | undefined;
		'aria-colindex'?: number | undefined;
		'aria-colspan'?: number | undefined;
		'aria-controls'?: string | undefined;
		'aria-current'?: boolean | 'false' | 'true' | 'page' | 'step' | 'location' | 'date' | 'time' | undefined;
		'aria-describedby'?: string | undefined;
		'aria-description'?: string | undefined;
		'aria-details'?: string | undefined;
		'aria-disabled'?: Booleanish | undefined;
		'aria-errormessage'?: string | undefined;
		'aria-expanded'?: Booleanish | undefined;
		'aria-haspopup'?: boolean | 'false' | 'true' | 'menu' | 'listbox' | 'tree' | 'grid' | 'dialog' | undefined;
		'aria-hidden'?: Booleanish | undefined;
		'aria-invalid'?: boolean | 'false' | 'true' | 'grammar' | 'spelling' | undefined;
		'aria-keyshortcuts'?: string | undefined;
		'aria-label'?: string | undefined;
		'aria-labelledby'?: string | undefined;
		'aria-level'?: number | undefined;
		'aria-live'?: 'off' | 'assertive' | 'polite' | undefined;
		'aria-modal'?: Booleanish | undefined;
		'aria-multiline'?: Booleanish | undefined;
		'aria-multiselectable'?: Booleanish | undefined;
		'aria-orientation'?: 'horizontal' | 'vertical' | undefined;
		'aria-owns'?: string | undefined;
		'aria-placeholder'?: string | undefined;
		'aria-posinset'?: number | undefined;
		'aria-pressed'?: boolean | 'false' | 'mixed' | 'true' | undefined;
		'aria-readonly'?: Booleanish | undefined;
		'aria-relevant'?: string | undefined;
		'aria-required'?: Booleanish | undefined;
		'aria-roledescription'?: string | undefined;
		'aria-rowcount'?: number | undefined;
		'aria-rowindex'?: number | undefined;
		'aria-rowspan'?: number | undefined;
		'aria-selected'?: Booleanish | undefined;
		'aria-setsize'?: number | undefined;
		'aria-sort'?: 'none' | 'ascending' | 'descending' | 'other' | undefined;
		'aria-valuemax'?: number | undefined;
		'aria-valuemin'?: number | undefined;
		'aria-valuenow'?: number | undefined;
		'aria-valuetext'?: string | undefined;
	}

	export interface DOMAttributes< T > {
		children?: ReactNode | undefined;
		dangerouslySetInnerHTML?: { __html: string | TrustedHTML } | undefined;
		onCopy?: ClipboardEventHandler< T > | undefined;
		onCut?: ClipboardEventHandler< T > | undefined;
		onPaste?: ClipboardEventHandler< T > | undefined;
		onCompositionStart?: CompositionEventHandler< T > | undefined;
		onCompositionEnd?: CompositionEventHandler< T > | undefined;
		onFocus?: FocusEventHandler< T > | undefined;
		onBlur?: FocusEventHandler< T > | undefined;
		onChange?: FormEventHandler< T > | undefined;
		onBeforeInput?: InputEventHandler< T > | undefined;
		onInput?: FormEventHandler< T > | undefined;
		onReset?: FormEventHandler< T > | undefined;
		onSubmit?: FormEventHandler< T > | undefined;
		onInvalid?: FormEventHandler< T > | undefined;
		onLoad?: ReactEventHandler< T > | undefined;
		onError?: ReactEventHandler< T > | undefined;
		onKeyDown?: KeyboardEventHandler< T > | undefined;
		onKeyUp?: KeyboardEventHandler< T > | undefined;
		onClick?: MouseEventHandler< T > | undefined;
		onContextMenu?: MouseEventHandler< T > | undefined;
		onDoubleClick?: MouseEventHandler< T > | undefined;
		onMouseDown?: MouseEventHandler< T > | undefined;
		onMouseEnter?: MouseEventHandler< T > | undefined;
		onMouseLeave?: MouseEventHandler< T > | undefined;
		onMouseMove?: MouseEventHandler< T > | undefined;
		onMouseOut?: MouseEventHandler< T > | undefined;
		onMouseOver?: MouseEventHandler< T > | undefined;
		onMouseUp?: MouseEventHandler< T > | undefined;
		onDrag?: DragEventHandler< T > | undefined;
		onDragEnd?: DragEventHandler< T > | undefined;
		onDragEnter?: DragEventHandler< T > | undefined;
		onDragLeave?: DragEventHandler< T > | undefined;
		onDragOver?: DragEventHandler< T > | undefined;
		onDragStart?: DragEventHandler< T > | undefined;
		onDrop?: DragEventHandler< T > | undefined;
		onPointerDown?: PointerEventHandler< T > | undefined;
		onPointerMove?: PointerEventHandler< T > | undefined;
		onPointerUp?: PointerEventHandler< T > | undefined;
		onPointerCancel?: PointerEventHandler< T > | undefined;
		onPointerEnter?: PointerEventHandler< T > | undefined;
		onPointerLeave?: PointerEventHandler< T > | undefined;
		onTouchStart?: TouchEventHandler< T > | undefined;
		onTouchMove?: TouchEventHandler< T > | undefined;
		onTouchEnd?: TouchEventHandler< T > | undefined;
		onTouchCancel?: TouchEventHandler< T > | undefined;
		onScroll?: UIEventHandler< T > | undefined;
		onWheel?: WheelEventHandler< T > | undefined;
		onAnimationStart?: AnimationEventHandler< T > | undefined;
		onAnimationEnd?: AnimationEventHandler< T > | undefined;
		onTransitionEnd?: TransitionEventHandler< T > | undefined;
	}

	export interface HTMLAttributes< T > extends AriaAttributes, DOMAttributes< T > {
		accessKey?: string | undefined;
		autoFocus?: boolean | undefined;
		className?: string | undefined;
		contentEditable?: Booleanish | 'inherit' | 'plaintext-only' | undefined;
		dir?: string | undefined;
		draggable?: Booleanish | undefined;
		hidden?: boolean | undefined;
		id?: string | undefined;
		inert?: boolean | undefined;
		lang?: string | undefined;
		nonce?: string | undefined;
		slot?: string | undefined;
		spellCheck?: Booleanish | undefined;
		style?: CSSProperties | undefined;
		tabIndex?: number | undefined;
		title?: string | undefined;
		translate?: 'yes' | 'no' | undefined;
		role?: AriaRole | undefined;
		inputMode?: 'none' | 'text' | 'tel' | 'url' | 'email' | 'numeric' | 'decimal' | 'search' | undefined;
		is?: string | undefined;
		[ dataAttribute: `data-${ string }` ]: string | number | boolean | undefined;
	}

	export type HTMLInputTypeAttribute =
		| 'button'
		| 'checkbox'
		| 'color'
		| 'date'
		| 'datetime-local'
		| 'email'
		| 'file'
		| 'hidden'
		| 'image'
		| 'month'
		| 'number'
		| 'password'
		| 'radio'
		| 'range'
		| 'reset'
		| 'search'
		| 'submit'
		| 'tel'
		| 'text'
		| 'time'
		| 'url'
		| 'week'
		| ( string & {} );

	export interface AllHTMLAttributes< T > extends HTMLAttributes< T > {
		accept?: string | undefined;
		action?: string | undefined;
		allowFullScreen?: boolean | undefined;
		alt?: string | undefined;
		autoComplete?: string | undefined;
		checked?: boolean | undefined;
		cols?: number | undefined;
		colSpan?: number | undefined;
		dateTime?: string | undefined;
		defaultChecked?: boolean | undefined;
		defaultValue?: string | number | readonly string[] | undefined;
		disabled?: boolean | undefined;
		download?: any;
		form?: string | undefined;
		headers?: string | undefined;
		height?: number | string | undefined;
		href?: string | undefined;
		htmlFor?: string | undefined;
		label?: string | undefined;
		list?: string | undefined;
		max?: number | string | undefined;
		maxLength?: number | undefined;
		method?: string | undefined;
		min?: number | string | undefined;
		minLength?: number | undefined;
		multiple?: boolean | undefined;
		name?: string | undefined;
		open?: boolean | undefined;
		pattern?: string | undefined;
		placeholder?: string | undefined;
		readOnly?: boolean | undefined;
		rel?: string | undefined;
		required?: boolean | undefined;
		rows?: number | undefined;
		rowSpan?: number | undefined;
		scope?: string | undefined;
		selected?: boolean | undefined;
		size?: number | undefined;
		span?: number | undefined;
		src?: string | undefined;
		step?: number | string | undefined;
		target?: string | undefined;
		type?: string | undefined;
		value?: string | readonly string[] | number | undefined;
		width?: number | string | undefined;
		wrap?: string | undefined;
	}

	export interface AnchorHTMLAttributes< T > extends HTMLAttributes< T > {
		download?: any;
		href?: string | undefined;
		hrefLang?: string | undefined;
		rel?: string | undefined;
		target?: '_self' | '_blank' | '_parent' | '_top' | ( string & {} ) | undefined;
		type?: string | undefined;
		referrerPolicy?: string | undefined;
	}
	export interface ButtonHTMLAttributes< T > extends HTMLAttributes< T > {
		disabled?: boolean | undefined;
		form?: string | undefined;
		name?: string | undefined;
		type?: 'submit' | 'reset' | 'button' | undefined;
		value?: string | readonly string[] | number | undefined;
	}
	export interface FieldsetHTMLAttributes< T > extends HTMLAttributes< T > {
		disabled?: boolean | undefined;
		form?: string | undefined;
		name?: string | undefined;
	}
	export interface FormHTMLAttributes< T > extends HTMLAttributes< T > {
		acceptCharset?: string | undefined;
		action?: string | undefined;
		autoComplete?: string | undefined;
		encType?: string | undefined;
		method?: string | undefined;
		name?: string | undefined;
		noValidate?: boolean | undefined;
		target?: string | undefined;
	}
	export interface ImgHTMLAttributes< T > extends HTMLAttributes< T > {
		alt?: string | undefined;
		height?: number | string | undefined;
		loading?: 'eager' | 'lazy' | undefined;
		sizes?: string | undefined;
		src?: string | undefined;
		srcSet?: string | undefined;
		width?: number | string | undefined;
	}
	export interface InputHTMLAttributes< T > extends HTMLAttributes< T > {
		accept?: string | undefined;
		alt?: string | undefined;
		autoComplete?: string | undefined;
		checked?: boolean | undefined;
		defaultChecked?: boolean | undefined;
		defaultValue?: string | number | readonly string[] | undefined;
		disabled?: boolean | undefined;
		form?: string | undefined;
		list?: string | undefined;
		max?: number | string | undefined;
		maxLength?: number | undefined;
		min?: number | string | undefined;
		minLength?: number | undefined;
		multiple?: boolean | undefined;
		name?: string | undefined;
		pattern?: string | undefined;
		placeholder?: string | undefined;
		readOnly?: boolean | undefined;
		required?: boolean | undefined;
		size?: number | undefined;
		src?: string | undefined;
		step?: number | string | undefined;
		type?: HTMLInputTypeAttribute | undefined;
		value?: string | readonly string[] | number | undefined;
		width?: number | string | undefined;
		onChange?: ChangeEventHandler< T > | undefined;
	}
	export interface LabelHTMLAttributes< T > extends HTMLAttributes< T > {
		form?: string | undefined;
		htmlFor?: string | undefined;
	}
	export interface LiHTMLAttributes< T > extends HTMLAttributes< T > {
		value?: string | readonly string[] | number | undefined;
	}
	export interface OlHTMLAttributes< T > extends HTMLAttributes< T > {
		reversed?: boolean | undefined;
		start?: number | undefined;
		type?: '1' | 'a' | 'A' | 'i' | 'I' | undefined;
	}
	export interface OptionHTMLAttributes< T > extends HTMLAttributes< T > {
		disabled?: boolean | undefined;
		label?: string | undefined;
		selected?: boolean | undefined;
		value?: string | readonly string[] | number | undefined;
	}
	export interface OptgroupHTMLAttributes< T > extends HTMLAttributes< T > {
		disabled?: boolean | undefined;
		label?: string | undefined;
	}
	export interface SelectHTMLAttributes< T > extends HTMLAttributes< T > {
		autoComplete?: string | undefined;
		disabled?: boolean | undefined;
		form?: string | undefined;
		multiple?: boolean | undefined;
		name?: string | undefined;
		required?: boolean | undefined;
		size?: number | undefined;
		value?: string | readonly string[] | number | undefined;
		onChange?: ChangeEventHandler< T > | undefined;
	}
	export interface TableHTMLAttributes< T > extends HTMLAttributes< T > {
		cellPadding?: number | string | undefined;
		cellSpacing?: number | string | undefined;
		summary?: string | undefined;
		width?: number | string | undefined;
	}
	export interface TdHTMLAttributes< T > extends HTMLAttributes< T > {
		align?: 'left' | 'center' | 'right' | 'justify' | 'char' | undefined;
		colSpan?: number | undefined;
		headers?: string | undefined;
		rowSpan?: number | undefined;
		scope?: string | undefined;
		abbr?: string | undefined;
		valign?: 'top' | 'middle' | 'bottom' | 'baseline' | undefined;
	}
	export interface ThHTMLAttributes< T > extends HTMLAttributes< T > {
		align?: 'left' | 'center' | 'right' | 'justify' | 'char' | undefined;
		colSpan?: number | undefined;
		headers?: string | undefined;
		rowSpan?: number | undefined;
		scope?: string | undefined;
		abbr?: string | undefined;
	}
	export interface TextareaHTMLAttributes< T > extends HTMLAttributes< T > {
		autoComplete?: string | undefined;
		cols?: number | undefined;
		defaultValue?: string | number | readonly string[] | undefined;
		disabled?: boolean | undefined;
		form?: string | undefined;
		maxLength?: number | undefined;
		minLength?: number | undefined;
		name?: string | undefined;
		placeholder?: string | undefined;
		readOnly?: boolean | undefined;
		required?: boolean | undefined;
		rows?: number | undefined;
		value?: string | readonly string[] | number | undefined;
		wrap?: string | undefined;
		onChange?: ChangeEventHandler< T > | undefined;
	}
	export interface TimeHTMLAttributes< T > extends HTMLAttributes< T > {
		dateTime?: string | undefined;
	}
	export interface ProgressHTMLAttributes< T > extends HTMLAttributes< T > {
		max?: number | string | undefined;
		value?: string | readonly string[] | number | undefined;
	}
	export interface MediaHTMLAttributes< T > extends HTMLAttributes< T > {
		autoPlay?: boolean | undefined;
		controls?: boolean | undefined;
		loop?: boolean | undefined;
		muted?: boolean | undefined;
		playsInline?: boolean | undefined;
		preload?: string | undefined;
		src?: string | undefined;
	}
	export interface VideoHTMLAttributes< T > extends MediaHTMLAttributes< T > {
		height?: number | string | undefined;
		poster?: string | undefined;
		width?: number | string | undefined;
	}
	export interface IframeHTMLAttributes< T > extends HTMLAttributes< T > {
		allow?: string | undefined;
		height?: number | string | undefined;
		name?: string | undefined;
		sandbox?: string | undefined;
		src?: string | undefined;
		srcDoc?: string | undefined;
		width?: number | string | undefined;
	}

	export interface SVGAttributes< T > extends AriaAttributes, DOMAttributes< T > {
		className?: string | undefined;
		color?: string | undefined;
		height?: number | string | undefined;
		id?: string | undefined;
		lang?: string | undefined;
		role?: AriaRole | undefined;
		style?: CSSProperties | undefined;
		tabIndex?: number | undefined;
		width?: number | string | undefined;
		viewBox?: string | undefined;
		xmlns?: string | undefined;
		fill?: string | undefined;
		stroke?: string | undefined;
		d?: string | undefined;
		focusable?: Booleanish | 'auto' | undefined;
		[ attribute: string ]: unknown;
	}
	export interface SVGProps< T > extends SVGAttributes< T >, ClassAttributes< T > {}

	export type DetailedHTMLProps< E extends HTMLAttributes< T >, T > = ClassAttributes< T > & E;

	// ---------------------------------------------------------------- JSX
	export namespace JSX {
		type ElementType = string | JSXElementConstructor< any >;
		interface Element extends ReactElement< any, any > {}
		interface ElementClass extends Component< any > {
			render(): ReactNode;
		}
		interface ElementAttributesProperty {
			props: {};
		}
		interface ElementChildrenAttribute {
			children: {};
		}
		type LibraryManagedAttributes< C, P > = P;
		interface IntrinsicAttributes extends Attributes {}
		interface IntrinsicClassAttributes< T > extends ClassAttributes< T > {}

		interface IntrinsicElements {
			a: DetailedHTMLProps< AnchorHTMLAttributes< HTMLAnchorElement >, HTMLAnchorElement >;
			abbr: DetailedHTMLProps< HTMLAttributes< HTMLElement >, HTMLElement >;
			article: DetailedHTMLProps< HTMLAttributes< HTMLElement >, HTMLElement >;
			aside: DetailedHTMLProps< HTMLAttributes< HTMLElement >, HTMLElement >;
			b: DetailedHTMLProps< HTMLAttributes< HTMLElement >, HTMLElement >;
			br: DetailedHTMLProps< HTMLAttributes< HTMLBRElement >, HTMLBRElement >;
			button: DetailedHTMLProps< ButtonHTMLAttributes< HTMLButtonElement >, HTMLButtonElement >;
			caption: DetailedHTMLProps< HTMLAttributes< HTMLElement >, HTMLElement >;
			code: DetailedHTMLProps< HTMLAttributes< HTMLElement >, HTMLElement >;
			dd: DetailedHTMLProps< HTMLAttributes< HTMLElement >, HTMLElement >;
			details: DetailedHTMLProps< HTMLAttributes< HTMLDetailsElement > & { open?: boolean | undefined }, HTMLDetailsElement >;
			div: DetailedHTMLProps< HTMLAttributes< HTMLDivElement >, HTMLDivElement >;
			dl: DetailedHTMLProps< HTMLAttributes< HTMLDListElement >, HTMLDListElement >;
			dt: DetailedHTMLProps< HTMLAttributes< HTMLElement >, HTMLElement >;
			em: DetailedHTMLProps< HTMLAttributes< HTMLElement >, HTMLElement >;
			fieldset: DetailedHTMLProps< FieldsetHTMLAttributes< HTMLFieldSetElement >, HTMLFieldSetElement >;
			footer: DetailedHTMLProps< HTMLAttributes< HTMLElement >, HTMLElement >;
			form: DetailedHTMLProps< FormHTMLAttributes< HTMLFormElement >, HTMLFormElement >;
			h1: DetailedHTMLProps< HTMLAttributes< HTMLHeadingElement >, HTMLHeadingElement >;
			h2: DetailedHTMLProps< HTMLAttributes< HTMLHeadingElement >, HTMLHeadingElement >;
			h3: DetailedHTMLProps< HTMLAttributes< HTMLHeadingElement >, HTMLHeadingElement >;
			h4: DetailedHTMLProps< HTMLAttributes< HTMLHeadingElement >, HTMLHeadingElement >;
			h5: DetailedHTMLProps< HTMLAttributes< HTMLHeadingElement >, HTMLHeadingElement >;
			h6: DetailedHTMLProps< HTMLAttributes< HTMLHeadingElement >, HTMLHeadingElement >;
			header: DetailedHTMLProps< HTMLAttributes< HTMLElement >, HTMLElement >;
			hr: DetailedHTMLProps< HTMLAttributes< HTMLHRElement >, HTMLHRElement >;
			i: DetailedHTMLProps< HTMLAttributes< HTMLElement >, HTMLElement >;
			iframe: DetailedHTMLProps< IframeHTMLAttributes< HTMLIFrameElement >, HTMLIFrameElement >;
			img: DetailedHTMLProps< ImgHTMLAttributes< HTMLImageElement >, HTMLImageElement >;
			input: DetailedHTMLProps< InputHTMLAttributes< HTMLInputElement >, HTMLInputElement >;
			kbd: DetailedHTMLProps< HTMLAttributes< HTMLElement >, HTMLElement >;
			label: DetailedHTMLProps< LabelHTMLAttributes< HTMLLabelElement >, HTMLLabelElement >;
			legend: DetailedHTMLProps< HTMLAttributes< HTMLLegendElement >, HTMLLegendElement >;
			li: DetailedHTMLProps< LiHTMLAttributes< HTMLLIElement >, HTMLLIElement >;
			main: DetailedHTMLProps< HTMLAttributes< HTMLElement >, HTMLElement >;
			mark: DetailedHTMLProps< HTMLAttributes< HTMLElement >, HTMLElement >;
			nav: DetailedHTMLProps< HTMLAttributes< HTMLElement >, HTMLElement >;
			ol: DetailedHTMLProps< OlHTMLAttributes< HTMLOListElement >, HTMLOListElement >;
			optgroup: DetailedHTMLProps< OptgroupHTMLAttributes< HTMLOptGroupElement >, HTMLOptGroupElement >;
			option: DetailedHTMLProps< OptionHTMLAttributes< HTMLOptionElement >, HTMLOptionElement >;
			p: DetailedHTMLProps< HTMLAttributes< HTMLParagraphElement >, HTMLParagraphElement >;
			pre: DetailedHTMLProps< HTMLAttributes< HTMLPreElement >, HTMLPreElement >;
			progress: DetailedHTMLProps< ProgressHTMLAttributes< HTMLProgressElement >, HTMLProgressElement >;
			s: DetailedHTMLProps< HTMLAttributes< HTMLElement >, HTMLElement >;
			section: DetailedHTMLProps< HTMLAttributes< HTMLElement >, HTMLElement >;
			select: DetailedHTMLProps< SelectHTMLAttributes< HTMLSelectElement >, HTMLSelectElement >;
			small: DetailedHTMLProps< HTMLAttributes< HTMLElement >, HTMLElement >;
			span: DetailedHTMLProps< HTMLAttributes< HTMLSpanElement >, HTMLSpanElement >;
			strong: DetailedHTMLProps< HTMLAttributes< HTMLElement >, HTMLElement >;
			summary: DetailedHTMLProps< HTMLAttributes< HTMLElement >, HTMLElement >;
			sup: DetailedHTMLProps< HTMLAttributes< HTMLElement >, HTMLElement >;
			table: DetailedHTMLProps< TableHTMLAttributes< HTMLTableElement >, HTMLTableElement >;
			tbody: DetailedHTMLProps< HTMLAttributes< HTMLTableSectionElement >, HTMLTableSectionElement >;
			td: DetailedHTMLProps< TdHTMLAttributes< HTMLTableDataCellElement >, HTMLTableDataCellElement >;
			textarea: DetailedHTMLProps< TextareaHTMLAttributes< HTMLTextAreaElement >, HTMLTextAreaElement >;
			tfoot: DetailedHTMLProps< HTMLAttributes< HTMLTableSectionElement >, HTMLTableSectionElement >;
			th: DetailedHTMLProps< ThHTMLAttributes< HTMLTableHeaderCellElement >, HTMLTableHeaderCellElement >;
			thead: DetailedHTMLProps< HTMLAttributes< HTMLTableSectionElement >, HTMLTableSectionElement >;
			time: DetailedHTMLProps< TimeHTMLAttributes< HTMLTimeElement >, HTMLTimeElement >;
			tr: DetailedHTMLProps< HTMLAttributes< HTMLTableRowElement >, HTMLTableRowElement >;
			u: DetailedHTMLProps< HTMLAttributes< HTMLElement >, HTMLElement >;
			ul: DetailedHTMLProps< HTMLAttributes< HTMLUListElement >, HTMLUListElement >;
			video: DetailedHTMLProps< VideoHTMLAttributes< HTMLVideoElement >, HTMLVideoElement >;
			svg: SVGProps< SVGSVGElement >;
			path: SVGProps< SVGPathElement >;
			circle: SVGProps< SVGCircleElement >;
			g: SVGProps< SVGGElement >;
			rect: SVGProps< SVGRectElement >;
		}
	}
}

declare module 'react/jsx-runtime' {
	import type { JSX as ReactJSX, Key, ReactElement, ExoticComponent, ReactNode } from 'react';
	export namespace JSX {
		type ElementType = ReactJSX.ElementType;
		interface Element extends ReactJSX.Element {}
		interface ElementClass extends ReactJSX.ElementClass {}
		interface ElementAttributesProperty extends ReactJSX.ElementAttributesProperty {}
		interface ElementChildrenAttribute extends ReactJSX.ElementChildrenAttribute {}
		type LibraryManagedAttributes< C, P > = ReactJSX.LibraryManagedAttributes< C, P >;
		interface IntrinsicAttributes extends ReactJSX.IntrinsicAttributes {}
		interface IntrinsicClassAttributes< T > extends ReactJSX.IntrinsicClassAttributes< T > {}
		interface IntrinsicElements extends ReactJSX.IntrinsicElements {}
	}
	export const Fragment: ExoticComponent< { children?: ReactNode | undefined } >;
	export function jsx( type: unknown, props: unknown, key?: Key ): ReactElement;
	export function jsxs( type: unknown, props: unknown, key?: Key ): ReactElement;
}

declare module 'react-dom' {
	import type { ReactNode, ReactPortal, Key, Component } from 'react';
	export function createPortal( children: ReactNode, container: Element | DocumentFragment, key?: Key | null ): ReactPortal;
	export function flushSync< R >( fn: () => R ): R;
	export function findDOMNode( instance: Element | Component< any, any > | null | undefined ): Element | null | Text;
	export function render( element: ReactNode, container: Element | DocumentFragment | null, callback?: () => void ): void;
	export function hydrate( element: ReactNode, container: Element | DocumentFragment | null, callback?: () => void ): void;
	export function unmountComponentAtNode( container: Element | DocumentFragment ): boolean;
}

declare module 'react-dom/client' {
	import type { ReactNode } from 'react';
	export interface RootOptions {
		identifierPrefix?: string;
		onRecoverableError?: ( error: unknown ) => void;
	}
	export interface Root {
		render( children: ReactNode ): void;
		unmount(): void;
	}
	export function createRoot( container: Element | DocumentFragment, options?: RootOptions ): Root;
	export function hydrateRoot( container: Element | Document, initialChildren: ReactNode, options?: RootOptions ): Root;
}
