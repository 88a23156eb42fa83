"""Paper: the print pages (pairings two ways, table slips with the per-table link and its
QR code, score sheets per rule preset, standings) and the per-table link itself."""
