import { PasskeysSection } from './PasskeysSection.tsx';
import { PasswordSection } from './PasswordSection.tsx';

/** /admin#cuenta (every member): change one's password (the other sessions end), and one's passkeys. */
export function AccountView() {
  return (
    <div className="grid gap-6">
      <PasswordSection />
      <PasskeysSection />
    </div>
  );
}
