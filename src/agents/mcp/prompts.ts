import { ErrorCode, type GetPromptResult, type Prompt } from '@modelcontextprotocol/sdk/types.js';
import { ProtocolError } from './errors.js';
import type { ToolInvoker } from '../invoke.js';
import type { CompletionKind } from './completions.js';

/**
 * MCP prompts: ready-made tasks a user picks in their client. Each one reads the data it needs through the tools
 * (the same answers a model would get by calling them) and puts it in the message with the instruction, so the
 * model writes from the published figures and cites their URLs rather than from memory.
 */
export interface PromptArgument {
  name: string;
  description: string;
  required: boolean;
  /** What completion/complete offers for it. */
  completes: CompletionKind;
}

export interface PromptDefinition {
  name: string;
  title: string;
  description: string;
  arguments: PromptArgument[];
  render(invoke: ToolInvoker, args: Record<string, string>): Promise<GetPromptResult>;
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

function userText(text: string): GetPromptResult['messages'][number] {
  return { role: 'user', content: { type: 'text', text } };
}

export const PROMPTS: readonly PromptDefinition[] = [
  {
    name: 'weekly_sector_brief',
    title: 'Weekly sector brief',
    description:
      "A one-page brief on one sector's week: who leads its ranking, who is accelerating and on what evidence, from the published signals (the current week or a stored one).",
    arguments: [
      { name: 'sector', description: 'Sector slug, one of the 15.', required: true, completes: 'sector' },
      {
        name: 'period',
        description: 'ISO week slug of a stored period (default: the current week).',
        required: false,
        completes: 'period',
      },
    ],
    async render(invoke, args) {
      const ranking = (await invoke('search_startups_by_sector_in_period', {
        sector: args.sector,
        limit: 10,
        ...(args.period ? { period: args.period } : {}),
      })) as { name: string; url: string; period?: { name: string } };
      const week = ranking.period?.name ?? 'the current week';
      return {
        description: `Weekly brief: ${ranking.name}, ${week}`,
        messages: [
          userText(
            `Write a weekly brief on the ${ranking.name} sector for ${week}, for an investor who reads it in two minutes.\n\n` +
              '- Open with the one-sentence takeaway.\n' +
              '- Then the leaders of the ranking and who is accelerating, each with the figures behind it ' +
              '(commit velocity and its change, contributor growth, new repositories) and its signal type with the ' +
              'strength of its evidence (labels). Say plainly when the evidence is weak.\n' +
              '- Use only the data below; do not add companies, funding or news it does not contain. ' +
              `Cite the sector page (${ranking.url}).\n\n` +
              `The sector ranking (top 10, from the tool search_startups_by_sector_in_period):\n\n${json(ranking)}`,
          ),
        ],
      };
    },
  },
  {
    name: 'diligence_memo',
    title: 'Diligence memo',
    description:
      'A short diligence memo on a named company from public sources: acquirer history, disclosed backers, and its engineering signal week by week, each fact with its source.',
    arguments: [
      {
        name: 'company',
        description: 'Company name (a tracked startup or a company of the diligence corpus).',
        required: true,
        completes: 'startup',
      },
    ],
    async render(invoke, args) {
      const dossier = await invoke('get_diligence_dossier', { company: args.company });
      const history = (await invoke('get_startup_history', { name: args.company, limit: 12 })) as {
        found: boolean;
      };
      const parts = [
        `Write a diligence memo on ${args.company} for an investment committee.\n\n` +
          '- Sections: Summary, Engineering signal (trend over the weeks below), Ownership and backers, ' +
          'Acquisitions, Open questions.\n' +
          '- Every fact carries its source URL from the data below. Where the data is silent, say so: never fill a ' +
          'gap from memory, and never describe a different company with a similar name.\n',
        `The diligence dossier (from the tool get_diligence_dossier):\n\n${json(dossier)}`,
        history.found
          ? `Its weekly history, most recent 12 weeks (from the tool get_startup_history):\n\n${json(history)}`
          : 'It is not a tracked startup (get_startup_history found no startup of this exact name), so there is no engineering signal to report.',
      ];
      return { description: `Diligence memo: ${args.company}`, messages: [userText(parts.join('\n\n'))] };
    },
  },
];

export function promptList(): Prompt[] {
  return PROMPTS.map((p) => ({
    name: p.name,
    title: p.title,
    description: p.description,
    arguments: p.arguments.map(({ name, description, required }) => ({ name, description, required })),
  }));
}

export function findPrompt(name: string): PromptDefinition {
  const prompt = PROMPTS.find((p) => p.name === name);
  if (!prompt)
    throw new ProtocolError(ErrorCode.InvalidParams, `No prompt named ${JSON.stringify(name.slice(0, 100))}.`);
  return prompt;
}

/** The arguments of prompts/get: required ones present, no unknown ones (−32602 otherwise). */
export function promptArguments(prompt: PromptDefinition, given: Record<string, string> | undefined) {
  const args = given ?? {};
  for (const key of Object.keys(args)) {
    if (!prompt.arguments.some((a) => a.name === key)) {
      throw new ProtocolError(
        ErrorCode.InvalidParams,
        `The prompt ${prompt.name} has no argument ${JSON.stringify(key)}.`,
      );
    }
  }
  for (const a of prompt.arguments) {
    if (a.required && !(typeof args[a.name] === 'string' && args[a.name]!.trim() !== '')) {
      throw new ProtocolError(ErrorCode.InvalidParams, `The prompt ${prompt.name} needs the argument ${a.name}.`);
    }
  }
  return args;
}
