import { SECTOR_SLUGS, type SectorSlug } from '../schemas/enums.js';

export interface SectorInfo {
  slug: SectorSlug;
  name: string;
  description: string;
}

const SECTORS: Record<SectorSlug, Omit<SectorInfo, 'slug'>> = {
  healthcare: {
    name: 'Healthcare',
    description: 'Clinical software, health data platforms, diagnostics and care delivery tooling.',
  },
  edtech: {
    name: 'EdTech',
    description: 'Learning platforms, classroom tools, assessment and education infrastructure.',
  },
  'ecommerce-infrastructure': {
    name: 'E-commerce Infrastructure',
    description: 'Headless commerce, checkout, payments plumbing, catalogue and storefront tooling.',
  },
  'supply-chain': {
    name: 'Supply Chain',
    description: 'Logistics, freight, warehousing, procurement and inventory software.',
  },
  web3: {
    name: 'Web3',
    description: 'Blockchain protocols, wallets, smart-contract tooling and on-chain infrastructure.',
  },
  'enterprise-saas': {
    name: 'Enterprise SaaS',
    description: 'Business software sold to companies: workflow, security, collaboration and operations.',
  },
  'data-infrastructure': {
    name: 'Data Infrastructure',
    description: 'Databases, pipelines, streaming, observability and the tooling data teams build on.',
  },
  robotics: {
    name: 'Robotics',
    description: 'Robot software stacks, autonomy, simulation, perception and industrial automation.',
  },
  'legal-tech': {
    name: 'Legal Tech',
    description: 'Contract, compliance, e-discovery and practice-management software.',
  },
  'hr-tech': {
    name: 'HR Tech',
    description: 'Recruiting, payroll, people analytics and workforce management software.',
  },
  proptech: {
    name: 'PropTech',
    description: 'Real-estate, construction, property-management and building-systems software.',
  },
  agtech: {
    name: 'AgTech',
    description: 'Farm management, precision agriculture, food systems and agricultural data.',
  },
  gaming: { name: 'Gaming', description: 'Game engines, game services, multiplayer infrastructure and creator tools.' },
  'space-tech': {
    name: 'Space Tech',
    description: 'Satellite software, ground systems, earth observation and launch tooling.',
  },
  'social-community': {
    name: 'Social & Community',
    description: 'Community platforms, social networks, messaging and creator-audience tools.',
  },
};

export const sectors: readonly SectorInfo[] = SECTOR_SLUGS.map((slug) => ({ slug, ...SECTORS[slug] }));

export function sectorInfo(slug: SectorSlug): SectorInfo {
  return { slug, ...SECTORS[slug] };
}
