import { IconDatabase, IconPlugConnected } from '@tabler/icons-react';
import type { CollectionDetail } from '@datalab/contract/api/collections';
import { EmptyPanel } from '../../../components/page/EmptyPanel.tsx';
import { plural } from '../../../lib/format.ts';

const kinds = {
  assets: {
    icon: <IconDatabase size={28} stroke={1.5} />,
    noun: 'data asset',
    what: 'Data assets — parameterised SQL queries and Web API requests — ',
    count: (c: CollectionDetail) => c.assetCount,
  },
  connections: {
    icon: <IconPlugConnected size={28} stroke={1.5} />,
    noun: 'connection',
    what: 'Connections — the SQL databases and Web APIs its data assets run on — ',
    count: (c: CollectionDetail) => c.connectionCount,
  },
} as const;

/** The data assets and connections tabs: their count, and honestly, that they arrive with a later release. */
export function UpcomingContents({ collection, kind }: { collection: CollectionDetail; kind: keyof typeof kinds }) {
  const { icon, noun, what, count } = kinds[kind];
  const n = count(collection);
  return (
    <EmptyPanel
      icon={icon}
      title={n === 0 ? `No ${noun}s yet` : `${plural(n, noun)} in this collection`}
      description={`${what}are listed and managed here in an upcoming release of Data Lab. ${
        n === 0 ? `This collection has none yet.` : `This screen cannot show them yet.`
      }`}
    />
  );
}
