import { Alert, Stack, Tabs, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { TOKEN_PLACEHOLDER } from '@datalab/contract/snippets';
import { CopyableCode } from './CopyableCode.tsx';

// "Use from an AI assistant": the MCP endpoint and ready configurations for common clients. The token stays a
// placeholder: people paste one of their own tokens (or let the client sign them in, where it can).

/** The MCP endpoint of this Data Lab (served from the portal's origin). */
export const mcpEndpointUrl = () => `${window.location.origin}/mcp`;

const SERVER_NAME = 'datalab';

export function mcpConfigurations(url: string) {
  const headers = { Authorization: `Bearer ${TOKEN_PLACEHOLDER}` };
  const json = (entry: Record<string, unknown>) => JSON.stringify({ mcpServers: { [SERVER_NAME]: entry } }, null, 2);
  return {
    mcpServers: json({ type: 'http', url, headers }),
    streamableHttp: json({ transport: 'streamable-http', url, headers }),
    claudeCode: `claude mcp add --transport http ${SERVER_NAME} ${url} --header "Authorization: Bearer ${TOKEN_PLACEHOLDER}"`,
  };
}

export function AiAssistantSetup({ available }: { available: boolean }) {
  const url = mcpEndpointUrl();
  const configurations = mcpConfigurations(url);
  return (
    <Stack gap="md">
      {available ? (
        <Text size="sm" c="dimmed">
          AI assistants that speak the Model Context Protocol (Claude, ChatGPT, Cursor, VS Code, your own agents) get
          this data asset as a tool, with the data assets of yours that are available to AI agents. They call it as you
          (or as the token you give them), with the same masks and limits, and change nothing.
        </Text>
      ) : (
        <Alert variant="light" color="gray" icon={<IconInfoCircle size={18} />}>
          This data asset is not available to AI agents: an editor of the asset can switch it on. The endpoint below
          offers your other data assets that are.
        </Alert>
      )}
      <CopyableCode label="MCP endpoint" value={url} />
      <Tabs defaultValue="mcpServers">
        <Tabs.List aria-label="AI assistant configurations">
          <Tabs.Tab value="mcpServers">mcpServers (JSON)</Tabs.Tab>
          <Tabs.Tab value="streamableHttp">streamable-http</Tabs.Tab>
          <Tabs.Tab value="claudeCode">Claude Code</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="mcpServers" pt="sm">
          <CopyableCode label="mcpServers entry" value={configurations.mcpServers} block />
        </Tabs.Panel>
        <Tabs.Panel value="streamableHttp" pt="sm">
          <CopyableCode label="streamable-http entry" value={configurations.streamableHttp} block />
        </Tabs.Panel>
        <Tabs.Panel value="claudeCode" pt="sm">
          <CopyableCode label="Claude Code command" value={configurations.claudeCode} block />
        </Tabs.Panel>
      </Tabs>
      <Text size="xs" c="dimmed">
        Put one of your tokens in place of {TOKEN_PLACEHOLDER}; a token narrowed to this collection gives the assistant
        only its data assets. Clients that sign you in themselves need only the endpoint.
      </Text>
    </Stack>
  );
}
