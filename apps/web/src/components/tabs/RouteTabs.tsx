import type { ReactNode } from 'react';
import { Badge, Tabs } from '@mantine/core';
import { useNavigate } from 'react-router';

// Tabs whose selection lives in the URL (/collection/{uid}/access, /management/user-group/{id}/members):
// links and Back work, and only the open tab's panel is rendered (and fetches).

export interface RouteTab<T extends string = string> {
  value: T;
  label: string;
  icon?: ReactNode;
  /** Shown as a small count beside the label. */
  count?: number;
}

/** The tab a URL segment names: the default when there is none, null when it names no tab. */
export function tabFromSegment<T extends string>(
  tabs: readonly RouteTab<T>[],
  segment: string | undefined,
  fallback: T,
): T | null {
  if (segment === undefined || segment === '') return fallback;
  return tabs.find((tab) => tab.value === segment)?.value ?? null;
}

export interface RouteTabsProps<T extends string> {
  tabs: readonly RouteTab<T>[];
  value: T;
  /** The URL of a tab. */
  pathFor: (tab: T) => string;
  label: string;
  /** The open tab's content. */
  children: ReactNode;
}

export function RouteTabs<T extends string>({ tabs, value, pathFor, label, children }: RouteTabsProps<T>) {
  const navigate = useNavigate();
  const handleChange = (next: string | null) => {
    const tab = tabs.find((candidate) => candidate.value === next);
    if (tab && tab.value !== value) void navigate(pathFor(tab.value));
  };
  return (
    <Tabs value={value} onChange={handleChange} keepMounted={false}>
      <Tabs.List aria-label={label} mb="lg">
        {tabs.map((tab) => (
          <Tabs.Tab
            key={tab.value}
            value={tab.value}
            leftSection={tab.icon}
            rightSection={
              tab.count === undefined ? null : (
                <Badge size="xs" variant="light" color="gray" circle={tab.count < 10}>
                  {tab.count}
                </Badge>
              )
            }
          >
            {tab.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      <Tabs.Panel value={value}>{children}</Tabs.Panel>
    </Tabs>
  );
}
