import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { restartLive, startLive, stopLive } from '@/lib/live/live-hub';
import { onLogout, useSession } from '@/lib/session';
import { useJobNotifications } from './job-notifications';

/**
 * The tab's live stream while signed in (mounted once, in the signed-in frame): started with the session's
 * token, reconnected when the token changes, ended at logout (while the token can still withdraw the
 * tab's presence) and when the frame unmounts. It also turns `job` events into notifications.
 */
export function LiveConnection() {
  const token = useSession((s) => s.token);
  const hasToken = !!token;
  const navigate = useNavigate();

  useEffect(() => {
    if (!hasToken) return;
    startLive();
    const stopOnLogout = onLogout(stopLive);
    return () => {
      stopOnLogout();
      stopLive();
    };
  }, [hasToken]);

  // The stream starts with the token the frame mounted with; a later one (a restored session) reconnects it.
  const [first] = useState(token);
  useEffect(() => {
    if (token && token !== first) restartLive();
  }, [token, first]);

  useJobNotifications(navigate);
  return null;
}
