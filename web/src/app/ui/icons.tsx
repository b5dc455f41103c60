// Icons as inline SVG (nothing fetched): 24-unit strokes in the current text colour. Decorative
// unless given a `label`, which becomes their accessible name.
import type { ComponentChildren } from 'preact';

export interface IconProps {
  size?: number;
  label?: string;
  class?: string;
}

function Icon({ size = 20, label, class: className, children }: IconProps & { children: ComponentChildren }) {
  return (
    <svg
      class={`icon${className ? ` ${className}` : ''}`}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      stroke-width="2"
      stroke-linecap="round"
      stroke-linejoin="round"
      role={label ? 'img' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : 'true'}
      focusable="false"
    >
      {children}
    </svg>
  );
}

export const MenuIcon = (props: IconProps) => <Icon {...props}><path d="M4 6h16M4 12h16M4 18h16" /></Icon>;
export const CloseIcon = (props: IconProps) => <Icon {...props}><path d="M6 6l12 12M18 6L6 18" /></Icon>;
export const CheckIcon = (props: IconProps) => <Icon {...props}><path d="M5 12.5l4.5 4.5L19 7.5" /></Icon>;
export const CopyIcon = (props: IconProps) => (
  <Icon {...props}>
    <rect x="9" y="9" width="11" height="11" rx="2" />
    <path d="M5 15V6a2 2 0 0 1 2-2h9" />
  </Icon>
);
export const AlertIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M12 3.5l9.5 16.5h-19z" />
    <path d="M12 10v4.5M12 17.5v.01" />
  </Icon>
);
export const InfoIcon = (props: IconProps) => (
  <Icon {...props}>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 11v6M12 7.5v.01" />
  </Icon>
);
export const HomeIcon = (props: IconProps) => <Icon {...props}><path d="M3.5 11L12 4l8.5 7M6 9.5V20h12V9.5" /></Icon>;
export const FleetIcon = (props: IconProps) => (
  <Icon {...props}>
    <rect x="3" y="4" width="18" height="16" rx="2" />
    <path d="M3 10h18M9 10v10" />
  </Icon>
);
export const PlaneIcon = (props: IconProps) => (
  <Icon {...props}><path d="M21 15.5l-8-4.5V5.5a1.5 1.5 0 0 0-3 0V11l-7 4.5v2l7-2v3.5l-2 1.5v1.5l3.5-1 3.5 1V21l-2-1.5V15.5l8 2z" /></Icon>
);
export const HelicopterIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M3 4h14M10 4v3" />
    <path d="M6 11a4 4 0 0 1 4-4h2a5 5 0 0 1 5 5v1H8a2 2 0 0 1-2-2z" />
    <path d="M17 11h4M9 13v3M14 13v3M7 16h9" />
  </Icon>
);
export const ShipIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M3 15l2 5h14l2-5z" />
    <path d="M6 15V9h12v6M12 9V4M9 4h6" />
  </Icon>
);
export const MapIcon = (props: IconProps) => (
  <Icon {...props}><path d="M9 4L3 6.5v13.5L9 17.5l6 2.5 6-2.5V4l-6 2.5zM9 4v13.5M15 6.5V20" /></Icon>
);
export const ZoneIcon = (props: IconProps) => (
  <Icon {...props}><path d="M5 7l7-4 8 5-2 11-11 1z" /><circle cx="12" cy="12" r="1.5" /></Icon>
);
export const AnchorIcon = (props: IconProps) => (
  <Icon {...props}>
    <circle cx="12" cy="5" r="2" />
    <path d="M12 7v14M5 13a7 7 0 0 0 14 0M8 10h8" />
  </Icon>
);
export const SettingsIcon = (props: IconProps) => (
  <Icon {...props}>
    <circle cx="12" cy="12" r="3" />
    <path d="M12 2.5v3M12 18.5v3M2.5 12h3M18.5 12h3M5.3 5.3l2.1 2.1M16.6 16.6l2.1 2.1M5.3 18.7l2.1-2.1M16.6 7.4l2.1-2.1" />
  </Icon>
);
export const UploadIcon = (props: IconProps) => <Icon {...props}><path d="M12 16V4M7 9l5-5 5 5M4 16v4h16v-4" /></Icon>;
export const MailIcon = (props: IconProps) => (
  <Icon {...props}>
    <rect x="3" y="5" width="18" height="14" rx="2" />
    <path d="M3.5 6.5L12 13l8.5-6.5" />
  </Icon>
);
export const BellIcon = (props: IconProps) => (
  <Icon {...props}><path d="M6 16V11a6 6 0 0 1 12 0v5l1.5 2h-15zM10 20.5a2 2 0 0 0 4 0" /></Icon>
);
