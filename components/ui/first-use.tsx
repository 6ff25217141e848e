'use client';
// Overlays (dialogs, menus) whose Radix code loads on first use rather than with the page. Until an overlay is first
// opened, its trigger is a plain element with the same look that opens it, and its content renders nothing; from
// then on the overlay is the Radix one, loaded as its own chunk. Pages keep the usual compound API
// (`Root`, `Trigger`, `Content` and the other parts), so callers do not know which of the two they render.
import { Slot } from 'radix-ui';
import {
  type ComponentProps,
  type ComponentType,
  createContext,
  type KeyboardEvent,
  lazy,
  type MouseEvent,
  type ReactNode,
  Suspense,
  useContext,
  useState,
} from 'react';

export interface OverlayRootProps {
  open?: boolean;
  defaultOpen?: boolean;
  onOpenChange?: (open: boolean) => void;
  children?: ReactNode;
}

// biome-ignore lint/suspicious/noExplicitAny: the parts are Radix components of many prop types
type AnyComponent = ComponentType<any>;

interface OverlayParts {
  Root: ComponentType<OverlayRootProps>;
  Trigger: AnyComponent;
}

type TriggerProps = ComponentProps<'button'> & { asChild?: boolean };

/**
 * The facade of one kind of overlay. `load` imports the module with the Radix-backed parts; `popup` is the
 * trigger's `aria-haspopup` before they are loaded.
 */
export function firstUseOverlay<Parts extends OverlayParts>(
  load: () => Promise<Parts>,
  popup: 'dialog' | 'menu',
) {
  const PartsContext = createContext<Parts | null>(null);
  /** Present while the overlay has not been used yet: opens it. */
  const OpenContext = createContext<(() => void) | null>(null);

  const Loaded = lazy(async () => {
    const parts = await load();
    // biome-ignore lint/correctness/noComponentHookFactories: made once per kind of overlay, at module level
    function LoadedRoot(props: OverlayRootProps) {
      return (
        <PartsContext.Provider value={parts}>
          <parts.Root {...props} />
        </PartsContext.Provider>
      );
    }
    return { default: LoadedRoot };
  });

  // biome-ignore lint/correctness/noComponentHookFactories: made once per kind of overlay, at module level
  function Root<P extends OverlayRootProps>(props: P) {
    const [used, setUsed] = useState(false);
    const [openedByTrigger, setOpenedByTrigger] = useState(false);
    const opening = Boolean(props.open || props.defaultOpen);
    if (opening && !used) setUsed(true);
    const open = () => {
      setUsed(true);
      if (props.open === undefined) setOpenedByTrigger(true);
      props.onOpenChange?.(true);
    };
    const idle = <OpenContext.Provider value={open}>{props.children}</OpenContext.Provider>;
    if (!used && !opening) return idle;
    return (
      <Suspense fallback={idle}>
        <OpenContext.Provider value={null}>
          <Loaded {...props} defaultOpen={props.defaultOpen || openedByTrigger} />
        </OpenContext.Provider>
      </Suspense>
    );
  }

  // biome-ignore lint/correctness/noComponentHookFactories: made once per kind of overlay, at module level
  function Trigger({ asChild, onClick, onKeyDown, ...props }: TriggerProps) {
    const open = useContext(OpenContext);
    const parts = useContext(PartsContext);
    if (!open && parts)
      return <parts.Trigger asChild={asChild} onClick={onClick} onKeyDown={onKeyDown} {...props} />;
    const Element = asChild ? Slot.Root : 'button';
    return (
      <Element
        type={asChild ? undefined : 'button'}
        aria-haspopup={popup}
        aria-expanded={false}
        data-state="closed"
        {...props}
        onClick={(event: MouseEvent<HTMLButtonElement>) => {
          onClick?.(event);
          if (!event.defaultPrevented) open?.();
        }}
        onKeyDown={(event: KeyboardEvent<HTMLButtonElement>) => {
          onKeyDown?.(event);
          // A menu also opens with the down arrow, as Radix's does.
          if (popup === 'menu' && event.key === 'ArrowDown' && !event.defaultPrevented) {
            event.preventDefault();
            open?.();
          }
        }}
      />
    );
  }

  /** A part that exists only while the overlay is loaded (content, title, items): nothing before. */
  function part<K extends keyof Parts>(key: K) {
    // biome-ignore lint/correctness/noComponentHookFactories: made once per kind of overlay, at module level
    const Part = (props: Parts[K] extends ComponentType<infer P> ? P : never) => {
      const idle = useContext(OpenContext);
      const parts = useContext(PartsContext);
      if (idle || !parts) return null;
      const Component = parts[key] as AnyComponent;
      return <Component {...(props as object)} />;
    };
    Part.displayName = String(key);
    return Part;
  }

  return { Root, Trigger, part };
}
