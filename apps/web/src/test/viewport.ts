// A matchMedia that answers min-/max-width queries from a width the test sets.

let width = 1280;
const listeners = new Set<() => void>();

function evaluate(query: string): boolean {
  const conditions = [...query.matchAll(/\((min|max)-width:\s*([\d.]+)(px|em)\)/gu)];
  if (conditions.length === 0) return false;
  return conditions.every(([, kind, value, unit]) => {
    const px = Number(value) * (unit === 'em' ? 16 : 1);
    return kind === 'min' ? width >= px : width <= px;
  });
}

export function setViewportWidth(next: number): void {
  width = next;
  listeners.forEach((listener) => listener());
}

export function installMatchMedia(): void {
  window.matchMedia = (query: string): MediaQueryList => {
    const changeListeners = new Set<EventListener>();
    const list: MediaQueryList = {
      get matches() {
        return evaluate(query);
      },
      media: query,
      onchange: null,
      addEventListener: (_type: string, listener: EventListenerOrEventListenerObject) => {
        if (typeof listener === 'function') changeListeners.add(listener);
      },
      removeEventListener: (_type: string, listener: EventListenerOrEventListenerObject) => {
        if (typeof listener === 'function') changeListeners.delete(listener);
      },
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => false,
    };
    listeners.add(() => {
      const event = Object.assign(new Event('change'), { matches: evaluate(query), media: query });
      changeListeners.forEach((listener) => listener(event));
    });
    return list;
  };
}
