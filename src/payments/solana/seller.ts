import type { Config } from '../../config.js';
import { rpcTransactionFetcher, type TransactionFetcher } from './rpc.js';
import { payeeTokenAccount, type SolanaSettings } from './terms.js';

/** What the Solana credit pack is sold with: the configured terms and the RPC client that reads a payment. */
export interface SolanaSeller {
  settings: SolanaSettings;
  fetchTransaction: TransactionFetcher;
}

/**
 * The Solana seller of a serving process, built once by the composition root; undefined without SOLANA_PAY_TO. The
 * receiving token account is derived here, so a SOLANA_PAY_TO or SOLANA_MINT that is no address stops the start.
 */
export async function solanaSeller(solana: Config['solana']): Promise<SolanaSeller | undefined> {
  if (!solana.payTo) return undefined;
  const settings: SolanaSettings = {
    cluster: solana.cluster,
    payTo: solana.payTo,
    mint: solana.mint,
    rpcUrl: solana.rpcUrl,
    commitment: solana.commitment,
  };
  await payeeTokenAccount(settings);
  return {
    settings,
    fetchTransaction: rpcTransactionFetcher({ rpcUrl: settings.rpcUrl, commitment: settings.commitment }),
  };
}
