// An inline SVG (no data: URIs, no external files) in Mantine palette colours: a chart gone astray.

export function ErrorIllustration({ size = 160 }: { size?: number }) {
  return (
    <svg width={size} height={size * 0.75} viewBox="0 0 160 120" role="img" aria-label="Illustration of a broken chart">
      <rect x="8" y="10" width="144" height="100" rx="12" fill="#e7f5ff" />
      <rect x="8" y="10" width="144" height="18" rx="9" fill="#d0ebff" />
      <circle cx="22" cy="19" r="3" fill="#ff8787" />
      <circle cx="32" cy="19" r="3" fill="#ffd43b" />
      <circle cx="42" cy="19" r="3" fill="#38d9a9" />
      <rect x="30" y="70" width="14" height="26" rx="3" fill="#74c0fc" />
      <rect x="52" y="56" width="14" height="40" rx="3" fill="#4dabf7" />
      <rect x="74" y="80" width="14" height="16" rx="3" fill="#74c0fc" />
      <rect x="96" y="46" width="14" height="50" rx="3" fill="#339af0" transform="rotate(14 103 71)" />
      <path d="M22 96h116" stroke="#adb5bd" strokeWidth="2" strokeLinecap="round" />
      <circle cx="124" cy="44" r="14" fill="#fa5252" />
      <path d="M124 36v10" stroke="#fff" strokeWidth="3" strokeLinecap="round" />
      <circle cx="124" cy="51.5" r="1.8" fill="#fff" />
    </svg>
  );
}
