import { ClassificationPopup } from '@/features/classifications/components/classification-popup';
import { HomeScreen } from '@/features/home/components/home-screen';

export { WELCOME_TEXT } from '@/features/home/components/search-results';

/** Home (spec part 1 §2): the search screen, with the client classification popup of its sidebar. */
export function HomeRoute() {
  return <HomeScreen classificationPopup={(props) => <ClassificationPopup {...props} />} />;
}
