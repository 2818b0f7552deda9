"""AndroidWorld's parameter pools and name generators, so mirrored tasks draw what AndroidWorld draws.

The lists are data read from AndroidWorld's source at the pinned commit (google-research/
android_world d9c569f, Apache-2.0); the module each comes from is named beside it, and
``tests/tasks/test_androidworld_conformance.py`` checks every list against that source. The
generators follow AndroidWorld's documented behaviour with a numpy ``Generator`` in place of
Python's global ``random``, so a seed fixes an episode here (same pools and shapes, not the same
draws as AndroidWorld for a given seed).

Example:
    >>> import numpy as np
    >>> from cerebellum_gym.tasks import awdata
    >>> rng = np.random.default_rng(0)
    >>> awdata.random_phone_number(rng)[:2], len(awdata.random_phone_number(rng))
    ('+1', 12)
    >>> awdata.modified_file_name(np.random.default_rng(3), "memo.m4a").endswith(".m4a")
    True
"""

from __future__ import annotations

import string
from datetime import date, timedelta
from typing import Final

import numpy as np

#: AndroidWorld's "today" on the device (``device_constants.DT``), in UTC.
DEVICE_TODAY: Final = date(2023, 10, 15)
_ALNUM: Final = string.ascii_letters + string.digits
_FIXED_TAGS: Final = ("backup", "copy", "final", "edited")


def pick(rng: np.random.Generator, items: tuple[str, ...] | list[str]) -> str:
    """One item, uniformly (``random.choice``)."""
    return str(items[int(rng.integers(len(items)))])


def random_string(rng: np.random.Generator, length: int) -> str:
    """Letters and digits (``user_data_generation.generate_random_string``)."""
    return "".join(_ALNUM[int(i)] for i in rng.integers(0, len(_ALNUM), size=length))


def random_date_str(rng: np.random.Generator) -> str:
    """A day of 2023 before the device's today, as ``YYYY_MM_DD`` (``_generate_random_date_str``)."""
    start = date(2023, 1, 1)
    day = start + timedelta(days=int(rng.integers(0, (date(2023, 10, 14) - start).days + 1)))
    return day.strftime("%Y_%m_%d")


def modified_file_name(rng: np.random.Generator, base: str) -> str:
    """``base`` with a date, a 4-character code or a tag as prefix or suffix, before the extension
    (``user_data_generation.generate_modified_file_name``)."""
    kind = int(rng.integers(3))
    as_prefix = bool(rng.integers(2))
    stem, dot, ext = base.rpartition(".") if "." in base.lstrip(".") else (base, "", "")
    ext = dot + ext
    if kind == 0:
        mod = random_date_str(rng)
    elif kind == 1:
        mod = random_string(rng, 4)
    else:
        mod = pick(rng, _FIXED_TAGS)
    return f"{mod}_{stem}{ext}" if as_prefix else f"{stem}_{mod}{ext}"


def random_file_name(rng: np.random.Generator) -> str:
    """``adjective_noun``, modified, without an extension (``generate_random_file_name``)."""
    return modified_file_name(rng, f"{pick(rng, ADJECTIVES)}_{pick(rng, NOUNS)}")


def random_note_name(rng: np.random.Generator) -> str:
    """A note's file name: a random file name ending in ``.md`` or ``.txt`` (markor's ``_generate_random_note``)."""
    return random_file_name(rng) + pick(rng, (".md", ".txt"))


def random_person_name(rng: np.random.Generator, excluding: str = "") -> str:
    """``Given Family`` (``generate_random_name``), avoiding every word of ``excluding``.

    AndroidWorld's own exclusion passes its arguments to ``re.split`` the wrong way round and so
    excludes nothing; here it works.
    """
    avoid = set(excluding.replace(",", " ").split())
    family = pick(rng, [n for n in FAMILY_NAMES if n not in avoid])
    given = pick(rng, [n for n in GIVEN_NAMES if n not in avoid])
    return f"{given} {family}"


def random_phone_number(rng: np.random.Generator) -> str:
    """``+1`` and ten digits (``generate_random_number``)."""
    return "+1" + "".join(str(int(d)) for d in rng.integers(0, 10, size=10))


def noise_file_names(rng: np.random.Generator, base: str, variants: tuple[str, ...], n: int = 20) -> list[str]:
    """Decoy file names as ``generate_noise_files`` draws them: 1 to ``n`` distinct names, each a
    modified variant (85%) or a modified ``base`` (15%), given a variant's extension when it has none."""
    count = int(rng.integers(1, n + 1))
    names: list[str] = []
    while len(names) < count:
        name = modified_file_name(rng, pick(rng, variants) if rng.random() <= 0.85 else base)
        if "." not in name:
            variant = pick(rng, variants)
            name += variant[variant.rfind(".") :] if "." in variant else ""
        if name not in names:
            names.append(name)
    return names


# --- the lists ---------------------------------------------------------------------------------

#: Given names (``user_data_generation.COMMON_GIVEN_NAMES``).
GIVEN_NAMES: Final[tuple[str, ...]] = (
    "Abdullah",
    "Adam",
    "Ahmed",
    "Alejandro",
    "Ali",
    "Alice",
    "Amelia",
    "Amina",
    "Amir",
    "Ana",
    "Anna",
    "Aria",
    "Arthur",
    "Ava",
    "Camila",
    "Carlos",
    "Charlie",
    "Charlotte",
    "Daniel",
    "David",
    "Elias",
    "Ella",
    "Ema",
    "Emil",
    "Emilia",
    "Emily",
    "Emma",
    "Eva",
    "Fatima",
    "Freya",
    "Gabriel",
    "George",
    "Grace",
    "Hana",
    "Hannah",
    "Henry",
    "Hugo",
    "Ian",
    "Ibrahim",
    "Isabella",
    "Isla",
    "Ivan",
    "Jack",
    "James",
    "Jose",
    "Juan",
    "Laura",
    "Leo",
    "Leon",
    "Leonardo",
    "Liam",
    "Lily",
    "Lina",
    "Louis",
    "Luca",
    "Lucas",
    "Luis",
    "Luka",
    "Maria",
    "Mariam",
    "Mark",
    "Martin",
    "Martina",
    "Maryam",
    "Mateo",
    "Matteo",
    "Maya",
    "Mia",
    "Miguel",
    "Mila",
    "Mohammad",
    "Muhammad",
    "Nikola",
    "Noa",
    "Noah",
    "Nora",
    "Oliver",
    "Olivia",
    "Omar",
    "Oscar",
    "Petar",
    "Samuel",
    "Santiago",
    "Sara",
    "Sarah",
    "Sofia",
    "Sofija",
    "Sophia",
    "Sophie",
    "Theo",
    "Theodore",
    "Thiago",
    "Thomas",
    "Valentina",
    "Victoria",
    "William",
    "Willow",
)

#: Family names (``user_data_generation._COMMON_FAMILY_NAMES``).
FAMILY_NAMES: Final[tuple[str, ...]] = (
    "Ahmed",
    "Ali",
    "Alves",
    "Chen",
    "Fernandez",
    "Ferreira",
    "Garcia",
    "Gonzalez",
    "Hernandez",
    "Ibrahim",
    "Li",
    "Liu",
    "Lopez",
    "Martin",
    "Mohamed",
    "Mohammed",
    "Muller",
    "Pereira",
    "Wang",
    "Zhang",
    "da Silva",
    "dos Santos",
)

#: The sentence pool of notes and text messages (``user_data_generation.RANDOM_SENTENCES``).
SENTENCES: Final[tuple[str, ...]] = (
    "Don't forget to water the plants while I'm away.",
    "Your dentist appointment is scheduled for 2 PM on Thursday.",
    "Lunch meeting with Sarah at 1 PM Cafe L'amour.",
    "The dog's vet appointment is next Monday at 11 AM.",
    "Parents' evening at school this Wednesday.",
    "Monthly budget meeting pushed to Friday.",
    "Pick up groceries: Milk and Bread and Apples.",
    "Gym membership renewal due on the 20th.",
    "The library book is due back on the 15th.",
    "Reminder to call Grandma for her birthday.",
    "Weekend plans: Hiking trip to Blue Mountain.",
    "Book club meets next Tuesday to discuss '1984'.",
    "Dry cleaning is ready for pick-up.",
    "Wedding anniversary on the 30th. Make reservations!",
    "Yoga class every Tuesday and Thursday at 6 PM.",
    "Hello, World!",
    "To be or not to be.",
    "A quick brown fox.",
    "Lorem Ipsum is simply dummy text.",
    "The night is dark and full of terrors.",
    "May the Force be with you.",
    "Elementary, my dear Watson.",
    "It's a bird, it's a plane.",
    "Winter is coming.",
    "The cake is a lie.",
    "Inconceivable!",
    "A journey of a thousand miles begins with a single step.",
    "I think, therefore I am.",
    "The early bird catches the worm.",
    "Ignorance is bliss.",
    "Actions speak louder than words.",
    "Beauty is in the eye of the beholder.",
    "Better late than never.",
    "Cleanliness is next to godliness.",
    "Don't cry over spilled milk.",
    "The pen is mightier than the sword.",
    "When in Rome, do as the Romans do.",
    "The squeaky wheel gets the grease.",
    "Where there is smoke, there is fire.",
    "You can't make an omelette without breaking a few eggs.",
)

#: File-name adjectives (``user_data_generation._ADJECTIVES``).
ADJECTIVES: Final[tuple[str, ...]] = (
    "quick",
    "happy",
    "silly",
    "brave",
    "kind",
    "clever",
    "gentle",
    "proud",
    "friendly",
    "funny",
    "curious",
    "smart",
    "bold",
    "calm",
    "fierce",
    "wise",
    "strong",
    "bright",
    "eager",
    "fancy",
    "helpful",
    "jolly",
    "lively",
    "neat",
    "polite",
    "sharp",
    "shy",
    "super",
    "tough",
    "witty",
    "active",
    "alert",
    "best",
    "busy",
    "cool",
    "fair",
    "fancy",
    "fine",
    "glad",
    "good",
    "great",
    "hot",
    "nice",
    "pretty",
    "proud",
    "ready",
    "real",
    "safe",
    "sure",
    "warm",
)

#: File-name nouns (``user_data_generation._NOUNS``).
NOUNS: Final[tuple[str, ...]] = (
    "apple",
    "banana",
    "cat",
    "dog",
    "elephant",
    "fish",
    "guitar",
    "house",
    "island",
    "jacket",
    "king",
    "lion",
    "monkey",
    "nest",
    "ocean",
    "penguin",
    "queen",
    "rabbit",
    "snake",
    "tree",
    "umbrella",
    "violin",
    "watch",
    "xylophone",
    "yacht",
    "zebra",
    "ant",
    "bear",
    "cow",
    "deer",
    "eagle",
    "frog",
    "goat",
    "horse",
    "igloo",
    "jelly",
    "koala",
    "lamp",
    "mouse",
    "nurse",
    "owl",
    "pig",
    "quilt",
    "rose",
    "sun",
    "tiger",
    "unicorn",
    "vase",
    "wolf",
    "fox",
    "zebra",
)

#: Shared-storage folders and typical file names in each (``user_data_generation.EMULATOR_DIRECTORIES``).
EMULATOR_DIRECTORIES: Final[dict[str, tuple[str, ...]]] = {
    "Alarms": (
        "morning_alarm.mp3",
        "wake_up.mp3",
        "early_alarm.mp3",
        "daily_reminder.mp3",
        "weekend_alarm.mp3",
        "night_alarm.mp3",
        "early_bird.mp3",
        "fitness_reminder.mp3",
        "meditation_time.mp3",
    ),
    "Audiobooks": (
        "sci_fi_book.mp3",
        "history_lecture.mp3",
        "novel_chapter.mp3",
        "biography_audio.mp3",
        "mystery_novel.mp3",
        "self_help_guide.mp3",
        "adventure_story.mp3",
        "language_lessons.mp3",
        "childrens_fable.mp3",
    ),
    "DCIM": (
        "holiday_photos.jpg",
        "birthday_party.jpg",
        "wedding_event.jpg",
        "nature_pics.jpg",
        "road_trip.jpg",
        "graduation_ceremony.jpg",
        "first_day_school.jpg",
        "mountain_hike.jpg",
        "winter_holiday.jpg",
    ),
    "Documents": (
        "resume.pdf",
        "cover_letter.pdf",
        "annual_report.pdf",
        "meeting_notes.pdf",
        "project_plan.pdf",
        "expense_report.pdf",
        "invoice_details.pdf",
        "client_brief.pdf",
        "contract_agreement.pdf",
    ),
    "Download": (
        "setup_exe.exe",
        "sample_pdf.pdf",
        "test_download.zip",
        "image_file.png",
        "movie_trailer.mp4",
        "software_patch.exe",
        "ebook_reader.apk",
        "music_album.zip",
    ),
    "Movies": (
        "action_film.mp4",
        "romantic_comedy.mp4",
        "documentary.mp4",
        "horror_movie.mp4",
        "sci_fi_thriller.mp4",
        "animation_kids.mp4",
        "drama_series.mp4",
        "mystery_feature.mp4",
    ),
    "Music": (
        "rock_album.mp3",
        "jazz_song.mp3",
        "classical_music.mp3",
        "pop_hit.mp3",
        "electronic_dance.mp3",
        "folk_tunes.mp3",
        "hip_hop_beats.mp3",
        "opera_recordings.mp3",
    ),
    "Notifications": (
        "new_message.mp3",
        "app_alert.mp3",
        "system_notification.mp3",
        "calendar_event.mp3",
        "email_received.mp3",
        "weather_update.mp3",
        "traffic_info.mp3",
        "sports_score.mp3",
    ),
    "Pictures": (
        "selfie.jpg",
        "sunset.jpg",
        "beach_day.jpg",
        "city_night.jpg",
        "family_gathering.jpg",
        "pets_playing.jpg",
        "garden_blooms.jpg",
        "food_snapshot.jpg",
    ),
    "Podcasts": (
        "news_podcast.mp3",
        "tech_talk.mp3",
        "comedy_show.mp3",
        "health_series.mp3",
        "educational_content.mp3",
        "music_reviews.mp3",
        "political_discussion.mp3",
        "travel_tips.mp3",
    ),
    "Recordings": (
        "interview_recording.mp3",
        "lecture_capture.mp3",
        "memoir_audio.mp3",
        "meeting_audio.mp3",
        "brainstorm_session.mp3",
        "book_reading.mp3",
        "therapy_session.mp3",
        "personal_notes.mp3",
    ),
    "Ringtones": (
        "default_ringtone.mp3",
        "custom_tone.mp3",
        "vintage_bell.mp3",
        "modern_beep.mp3",
        "jazzy_ring.mp3",
        "funky_tune.mp3",
        "classic_music.mp3",
        "nature_sounds.mp3",
    ),
}

#: Street addresses (``user_data_generation.generate_random_address``).
ADDRESSES: Final[tuple[str, ...]] = (
    "123 Main St Girdwood, AK, 99587",
    "6 Elm St, Birmingham, AL, 35217",
    "789 E Oak St, Phoenix AZ 85006",
    "1011 S Maple St, Little Rock, AR, 72204",
    "1415 W Cedar Ave Denver, CO, 80223",
    "968 Spruce St, Hartford, CT, 06103",
    "1819 Birch Ct, Dover, DE, 19901",
    "2021 Poplar St, Atlanta, GA, 30340",
)

#: Markor decoy note names (``markor._NOTE_TITLES``).
NOTE_TITLES: Final[tuple[str, ...]] = (
    "grocery_list_weekly.md",
    "meeting_notes_project_team.md",
    "personal_goals_2024.md",
    "reading_list_2024.md",
    "research_paper_summary.md",
    "summer_vacation_plans.md",
    "budget_home_renovation.md",
    "april_workout_routine.md",
    "birthday_gift_ideas_mom.md",
    "recipe_homemade_pizza.md",
    "weekend_todo_list.md",
    "insurance_plan_comparison.md",
    "art_project_sketches.md",
    "python_learning_goals.md",
    "trip_reflections_recent.md",
    "startup_ideas_launch.md",
    "client_meetings_schedule.md",
    "favorite_book_quotes.md",
    "garden_layout_plan.md",
    "upcoming_presentation_outline.md",
)

#: Markor folders of the move task (``MarkorMoveNote.generate_random_params``).
MARKOR_SUBFOLDERS: Final[tuple[str, ...]] = (
    "BookNotes",
    "CodeSnippets",
    "DailyNotes",
    "FitnessPlans",
    "MeetingMinutes",
    "PersonalJournal",
    "RecipeCollections",
    "StudyGuides",
    "TravelItineraries",
    "WorkProjects",
)

#: Expense names by category (``expense._EXPENSE_NAMES``).
EXPENSE_NAMES: Final[dict[str, tuple[str, ...]]] = {
    "Others": (
        "Emergency Repairs",
        "Pet Supplies",
        "Pet Care",
        "Household Items",
        "Stationery",
        "Unexpected Expenses",
        "Miscellaneous Gifts",
        "Subscriptions",
        "Membership Fees",
        "Legal Fees",
    ),
    "Income": (
        "Salary",
        "Freelance Payment",
        "Bonus",
        "Dividends",
        "Interest Income",
        "Rental Income",
        "Capital Gains",
        "Reimbursements",
        "Side Business",
        "Consulting Fees",
    ),
    "Food": (
        "Restaurant Meal",
        "Groceries",
        "Coffee",
        "Fast Food",
        "Fine Dining",
        "Bakery Items",
        "Snacks",
        "Food Delivery",
        "Specialty Foods",
        "Dining Out",
    ),
    "Housing": (
        "Rent Payment",
        "Mortgage",
        "Home Repairs",
        "Utilities",
        "Property Taxes",
        "Home Insurance",
        "Furnishing",
        "Cleaning Services",
        "Landscaping",
        "Pest Control",
    ),
    "Social": (
        "Dinner Party",
        "Gift for Friend",
        "Club Membership",
        "Wedding Gift",
        "Charity Donations",
        "Birthday Present",
        "Social Club Dues",
        "Event Tickets",
        "Night Out",
        "Party Supplies",
    ),
    "Entertainment": (
        "Concert Tickets",
        "Movie Night",
        "Theater Show",
        "Streaming Services",
        "Video Games",
        "Books",
        "Magazines",
        "Hobbies",
        "Museum Tickets",
        "Amusement Park",
    ),
    "Transportation": (
        "Taxi Fare",
        "Public Transit Pass",
        "Gas",
        "Parking Fees",
        "Car Maintenance",
        "Bike Repairs",
        "Car Insurance",
        "Public Transit",
        "Flight Tickets",
        "Ride-Sharing",
    ),
    "Clothes": (
        "New Jacket",
        "Shirt Purchase",
        "Shoes",
        "Dress",
        "Jeans",
        "Accessories",
        "Sportswear",
        "Undergarments",
        "Tailoring Services",
        "Laundry",
    ),
    "Health Care": (
        "Doctor Visits",
        "Medications",
        "Health Insurance",
        "Dental Care",
        "Eyecare",
        "Wellness Products",
        "Gym Membership",
        "Therapy Sessions",
        "Medical Tests",
    ),
    "Education": (
        "Tuition Fees",
        "School Supplies",
        "Textbooks",
        "Online Courses",
        "Seminars",
        "Workshops",
        "Educational Software",
        "Library Fees",
        "ProDev",
        "Tutoring Services",
    ),
    "Donation": (
        "Charity",
        "Fundraising Events",
        "Sponsorships",
        "Non-Profit Support",
        "Crowdfunding",
        "Religious",
        "Political",
        "Educational",
        "Medical Research",
        "Environmental",
    ),
}

#: Expense notes (``expense._NOTES``).
EXPENSE_NOTES: Final[tuple[str, ...]] = (
    "Paid by card",
    "Urgent",
    "Monthly recurring",
    "Want to have",
    "A need",
    "Remember to transfer funds",
    "I may repeat this",
)

#: Calendar title prefixes (``events_generator.TITLES_PREFIXES``).
EVENT_TITLES_PREFIXES: Final[tuple[str, ...]] = (
    "Meeting with",
    "Call with",
    "Workshop on",
    "Appointment for",
    "Catch up on",
    "Review session for",
)

#: Who a calendar event is with (``events_generator.NAMES``).
EVENT_NAMES: Final[tuple[str, ...]] = ("Alice", "Bob", "the Team", "HR", "Dr. Smith", "Marketing")

#: What a calendar event is on (``events_generator.SUBJECTS``).
EVENT_SUBJECTS: Final[tuple[str, ...]] = ("Project X", "Annual Report", "Budget Planning", "Campaign")

#: Description verbs (``events_generator.ACTIONS``).
EVENT_ACTIONS: Final[tuple[str, ...]] = (
    "discuss",
    "finalize",
    "plan",
    "celebrate",
    "prepare for",
    "review",
    "explore",
    "understand",
    "organize",
    "strategize about",
)

#: Description subjects (``events_generator.SUBJECTS_DESCRIPTIONS``).
EVENT_SUBJECTS_DESCRIPTIONS: Final[tuple[str, ...]] = (
    "upcoming project milestones",
    "marketing strategies",
    "annual budget",
    "product launch",
    "team roles",
    "client feedback",
    "contract details",
    "software updates",
    "business objectives",
)

#: Optional description endings (``events_generator.ADDITIONAL_NOTES``).
EVENT_ADDITIONAL_NOTES: Final[tuple[str, ...]] = (
    "Please bring relevant documents.",
    "Remember to confirm attendance.",
    "Let's be punctual.",
    "Looking forward to productive discussions.",
    "Snacks will be provided.",
)

#: Recording base names (``AudioRecorderRecordAudioWithFileName.generate_random_params``).
RECORDING_NAMES: Final[tuple[str, ...]] = (
    "interview",
    "meeting",
    "lecture",
    "session",
    "note",
    "conference",
    "webinar",
    "workshop",
    "seminar",
    "briefing",
    "discussion",
    "talk",
    "presentation",
    "training",
    "guidance",
    "memo",
    "narration",
    "storytelling",
    "journal",
    "diary",
    "debate",
    "symposium",
    "roundtable",
    "consultation",
    "review",
)

#: ``time`` values of ``SimpleCalendarEventsOnDate`` (``information_retrieval/proto/tasks.textproto``).
EVENTS_ON_DATE_TIMES: Final[tuple[str, ...]] = (
    "11:00am",
    "1:30pm",
    "9:45am",
    "21:45",
    "10:00am",
    "3:15pm",
    "12pm",
    "6:30am",
    "8:00pm",
    "12am",
    "5:20pm",
    "23:59",
    "7:45am",
    "4pm",
    "10:30am",
    "16:15",
    "2:45am",
    "9:15pm",
    "11:30am",
    "20:00",
)

#: ``date`` values of ``SimpleCalendarEventsOnDate`` (``information_retrieval/proto/tasks.textproto``).
EVENTS_ON_DATE_DATES: Final[tuple[str, ...]] = (
    "October 15 2023",
    "October 16 2023",
    "October 17 2023",
    "October 18 2023",
    "October 19 2023",
    "October 20 2023",
    "October 21 2023",
    "October 22 2023",
    "October 23 2023",
    "October 24 2023",
    "October 25 2023",
    "October 26 2023",
    "October 27 2023",
    "October 28 2023",
    "October 29 2023",
)

#: ``duration`` values of ``SimpleCalendarEventsOnDate`` (``information_retrieval/proto/tasks.textproto``).
EVENTS_ON_DATE_DURATIONS: Final[tuple[str, ...]] = (
    "30 m",
    "60 minutes",
    "45min",
    "1 h",
    "2 hours",
    "15 minutes",
    "1.5 hours",
    "90 min",
    "20 min",
    "3 h",
    "25 minutes",
    "10 min",
    "50 min",
    "2.5 hours",
    "75 minutes",
    "5 minutes",
)

#: ``title`` values of ``SimpleCalendarEventsOnDate`` (``information_retrieval/proto/tasks.textproto``).
EVENTS_ON_DATE_TITLES: Final[tuple[str, ...]] = (
    "Data Dive",
    "Bug Bash",
    "Dan's Birthday Party",
    "Trivia Night",
    "Product demo",
    "Team lunch",
    "Coffee with CEO",
    "Quarterly review",
    "Scrum meeting",
    "Doctor's appointment",
    "Birthday party",
    "Coding challenge",
    "Board meeting",
    "Marketing strategy workshop",
    "Movie night",
    "Dinner with friends",
    "Concert",
    "Game night",
    "Date night",
    "Weekend trip",
    "Family reunion",
    "Volunteer cleanup",
    "Sports game",
)

#: ``title`` values of ``SimpleCalendarLocationOfEvent`` (``information_retrieval/proto/tasks.textproto``).
LOCATION_OF_EVENT_TITLES: Final[tuple[str, ...]] = (
    "Marketing Brainstorm",
    "Lunch with Client",
    "Team Offsite",
    "Product demo",
    "Team lunch",
    "Coffee with CEO",
    "Quarterly review",
    "Scrum meeting",
    "Doctor's appointment",
    "Birthday party",
    "Coding challenge",
    "Board meeting",
    "Marketing strategy workshop",
    "Movie night",
    "Dinner with friends",
    "Concert",
    "Game night",
    "Date night",
    "Weekend trip",
    "Family reunion",
    "Volunteer cleanup",
    "Sports game",
)

#: ``location`` values of ``SimpleCalendarLocationOfEvent`` (``information_retrieval/proto/tasks.textproto``).
LOCATION_OF_EVENT_LOCATIONS: Final[tuple[str, ...]] = (
    "Conference Room A",
    "McDonald's",
    "100 Main St Chicago",
    "City Park",
    "The Coffee Bean",
    "Sarah's apartment",
    "Conference Room A",
    "Zoom meeting",
    "Riverside Restaurant",
    "Local library",
    "Bowling alley",
    "Community center",
    "Online",
    "The beach",
    "John's backyard",
    "State Park",
    "Art Museum",
    "Hiking trail",
    "Downtown",
    "Mall",
    "The gym",
    "School auditorium",
    "Virtual",
)

#: ``date`` values of ``SimpleCalendarLocationOfEvent`` (``information_retrieval/proto/tasks.textproto``).
LOCATION_OF_EVENT_DATES: Final[tuple[str, ...]] = (
    "October 15 2023",
    "October 16 2023",
    "October 17 2023",
    "October 18 2023",
    "October 19 2023",
    "October 20 2023",
    "October 21 2023",
    "October 22 2023",
    "October 23 2023",
    "October 24 2023",
    "October 25 2023",
    "October 26 2023",
    "October 27 2023",
    "October 28 2023",
    "October 29 2023",
)

#: ``time`` values of ``SimpleCalendarLocationOfEvent`` (``information_retrieval/proto/tasks.textproto``).
LOCATION_OF_EVENT_TIMES: Final[tuple[str, ...]] = (
    "11:00",
    "1:30pm",
    "9:45am",
    "11:00am",
    "1:30pm",
    "9:45am",
    "21:45",
    "10:00am",
    "3:15pm",
    "12pm",
    "6:30am",
    "8:00pm",
    "12am",
    "5:20pm",
    "23:59",
    "7:45am",
    "4pm",
    "10:30am",
    "16:15",
    "2:45am",
    "9:15pm",
    "11:30am",
    "20:00",
)

# --- Broccoli's recipes (``recipe.py``) ---------------------------------------------------------

#: The recipes' titles and directions (``recipe._RECIPES``; every other field is drawn).
RECIPES: Final[tuple[tuple[str, str], ...]] = (
    (
        "Spicy Tuna Wraps",
        "Mix canned tuna with mayo and sriracha. Spread on tortillas, add lettuce and cucumber slices, roll up.",
    ),
    (
        "Avocado Toast with Egg",
        "Toast bread, top with mashed avocado, a fried egg, salt, pepper, and chili flakes.",
    ),
    (
        "Greek Salad Pita Pockets",
        "Fill pita pockets with lettuce, cucumber, tomato, feta, olives, and Greek dressing.",
    ),
    (
        "Quick Fried Rice",
        "Sauté cooked rice with vegetables, add soy sauce and scrambled eggs. Toss until hot.",
    ),
    (
        "Pesto Pasta with Peas",
        "Cook pasta, stir in pesto sauce and cooked peas. Add Parmesan cheese before serving.",
    ),
    (
        "BBQ Chicken Quesadillas",
        "Mix shredded cooked chicken with BBQ sauce. Place on tortillas with cheese, fold and cook until crispy.",
    ),
    (
        "Tomato Basil Bruschetta",
        "Top sliced baguette with a mix of chopped tomatoes, basil, garlic, olive oil, salt, and pepper.",
    ),
    (
        "Lemon Garlic Tilapia",
        "Sauté tilapia in butter, add lemon juice and garlic. Serve with steamed vegetables.",
    ),
    (
        "Turkey and Cheese Panini",
        "Layer turkey and cheese on bread, grill in a panini press until golden.",
    ),
    (
        "Veggie and Hummus Sandwich",
        "Spread hummus on bread, add cucumber, bell pepper, carrot, and lettuce.",
    ),
    (
        "Mango Chicken Curry",
        "Cook chicken pieces in a pan, add onions, garlic, and ginger. Stir in curry powder, coconut milk, "
        "and mango pieces. Simmer until chicken is cooked.",
    ),
    (
        "Beef Stir Fry",
        "Stir-fry beef slices with broccoli, bell peppers, and onions in soy sauce and garlic. Serve over rice or noodles.",
    ),
    (
        "Shrimp Avocado Salad",
        "Mix cooked shrimp with avocado, tomatoes, cucumber, and onion. Dress with lime juice, olive oil, salt, and pepper.",
    ),
    (
        "Spinach and Feta Stuffed Chicken",
        "Stuff chicken breasts with a mixture of spinach, feta, garlic, and herbs. Bake until chicken is cooked through.",
    ),
    (
        "Zucchini Noodles with Pesto",
        "Spiralize zucchini into noodles, sauté with garlic, then mix with pesto sauce. Top with grated Parmesan cheese.",
    ),
    (
        'Cauliflower Fried "Rice"',
        "Pulse cauliflower in a food processor until it resembles rice. Sauté with vegetables, soy sauce, and add scrambled eggs.",
    ),
    (
        "Sweet Potato and Black Bean Tacos",
        "Roast sweet potato cubes, mix with black beans, and use as filling for tacos. Top with avocado and cilantro lime sauce.",
    ),
    (
        "Salmon with Dill Sauce",
        "Bake salmon fillets and serve with a sauce made from Greek yogurt, dill, lemon juice, and garlic.",
    ),
    (
        "Quinoa Salad with Vegetables",
        "Mix cooked quinoa with diced vegetables, feta cheese, and a lemon olive oil dressing.",
    ),
    (
        "Chickpea Vegetable Soup",
        "Sauté onions, carrots, and celery, add broth, canned tomatoes, and chickpeas. Simmer with spinach and seasonings.",
    ),
    (
        "Chicken Caesar Salad Wrap",
        "Toss chopped romaine lettuce with Caesar dressing, grilled chicken strips, and Parmesan cheese. Wrap in a large tortilla.",
    ),
    (
        "Vegetarian Chili",
        "Cook onions, garlic, bell peppers, and carrots. Add canned tomatoes, kidney beans, black beans, "
        "corn, and chili seasoning. Simmer until vegetables are tender.",
    ),
    (
        "Pan-Seared Salmon with Quinoa",
        "Pan-sear salmon fillets until crispy. Serve over cooked quinoa with a side of steamed asparagus.",
    ),
    (
        "Caprese Salad Skewers",
        "Thread cherry tomatoes, basil leaves, and mozzarella balls onto skewers. Drizzle with balsamic glaze.",
    ),
    (
        "Chicken Alfredo Pasta",
        "Cook fettuccine pasta, toss with Alfredo sauce and grilled chicken strips. Serve with a sprinkle of Parmesan cheese.",
    ),
    (
        "Stuffed Bell Peppers",
        "Mix cooked quinoa, black beans, corn, tomato sauce, and spices. Stuff into bell peppers and bake until tender.",
    ),
    (
        "Eggplant Parmesan",
        "Slice eggplant, bread, and fry. Layer in a baking dish with marinara sauce and mozzarella cheese. Bake until bubbly.",
    ),
    (
        "Thai Peanut Noodle Salad",
        "Toss cooked noodles with a Thai peanut sauce, sliced red bell peppers, cabbage, carrots, and cilantro.",
    ),
    (
        "Butternut Squash Soup",
        "Sauté onions and garlic, add cubed butternut squash and broth. Puree until smooth and season with nutmeg, salt, and pepper.",
    ),
    (
        "Baked Cod with Lemon and Dill",
        "Place cod fillets in a baking dish, season with lemon juice, dill, salt, and pepper. Bake until fish flakes easily.",
    ),
    (
        "Vegetable Stir Fry with Tofu",
        "Stir-fry tofu cubes until golden, add assorted vegetables and a stir-fry sauce. Serve over rice or noodles.",
    ),
    (
        "Classic Margherita Pizza",
        "Spread pizza dough with tomato sauce, top with slices of mozzarella cheese and fresh basil leaves. Bake until crust is golden.",
    ),
    (
        "Raspberry Almond Smoothie",
        "Blend together raspberries, almond milk, banana, and a scoop of almond butter until smooth.",
    ),
    (
        "Moroccan Chickpea Stew",
        "Sauté onions, garlic, carrots, and spices. Add canned chickpeas, diced tomatoes, and vegetable broth. Simmer until flavors meld.",
    ),
    (
        "Kale and Quinoa Salad",
        "Toss chopped kale, cooked quinoa, dried cranberries, sliced almonds, and feta cheese with a lemon vinaigrette.",
    ),
    (
        "Grilled Cheese with Tomato and Basil",
        "Butter bread slices, layer with cheese, tomato slices, and basil. Grill until bread is toasted and cheese is melted.",
    ),
    (
        "Sausage and Peppers Skillet",
        "Sauté sliced sausage, bell peppers, and onions until browned. Serve with mustard or on a hoagie roll.",
    ),
    (
        "Lentil Soup",
        "Cook onions, carrots, celery, garlic, and lentils in vegetable broth until lentils are tender. Season with thyme and bay leaves.",
    ),
    (
        "Garlic Butter Shrimp",
        "Sauté shrimp in butter and minced garlic until pink. Sprinkle with parsley and serve with lemon wedges.",
    ),
)
#: Descriptions (``descriptions`` in ``recipe._generate_random_recipe``).
RECIPE_DESCRIPTIONS: Final[tuple[str, ...]] = (
    "A quick and easy meal, perfect for busy weekdays.",
    "A delicious and healthy choice for any time of the day.",
    "An ideal recipe for experimenting with different flavors and ingredients.",
)
#: What is appended to the directions (``directions_additions`` there).
RECIPE_DIRECTIONS_ADDITIONS: Final[tuple[str, ...]] = (
    "Try adding a pinch of your favorite spices for extra flavor.",
    "Feel free to substitute with ingredients you have on hand.",
    "Garnish with fresh herbs for a more vibrant taste.",
)
#: The ingredients field's texts (``ingredient_descriptors`` there).
RECIPE_INGREDIENT_DESCRIPTORS: Final[tuple[str, ...]] = (
    "see directions",
    "as per recipe",
    "varies",
    "to preference",
    "quantities to taste",
    "as needed",
    "optional ingredients",
    "n/a",
    "various amounts",
    "adjustable",
    "to your liking",
    "flexible ingredients",
    "per individual taste",
    "as desired",
    "subject to change",
)
#: Servings (``recipe._SERVINGS_OPTIONS``).
RECIPE_SERVINGS: Final[tuple[str, ...]] = (
    "1 serving",
    "2 servings",
    "3-4 servings",
    "6 servings",
    "8 servings",
)
#: Preparation times (``recipe._PREP_TIME_OPTIONS``).
RECIPE_PREP_TIMES: Final[tuple[str, ...]] = (
    "10 mins",
    "20 mins",
    "30 mins",
    "45 mins",
    "1 hrs",
    "2 hrs",
    "3 hrs",
    "4 hrs",
)
#: Ingredients a constrained deletion names (``recipe._COMMON_INGREDIENTS``, with its repeats).
RECIPE_INGREDIENTS: Final[tuple[str, ...]] = (
    "tuna",
    "mayonnaise",
    "sriracha",
    "tortillas",
    "lettuce",
    "cucumber",
    "bread",
    "avocado",
    "eggs",
    "salt",
    "pepper",
    "chili flakes",
    "pita bread",
    "tomatoes",
    "feta cheese",
    "olives",
    "Greek dressing",
    "rice",
    "vegetables",
    "soy sauce",
    "pesto sauce",
    "peas",
    "Parmesan cheese",
    "chicken",
    "BBQ sauce",
    "cheese",
    "baguette",
    "basil",
    "garlic",
    "olive oil",
    "tilapia",
    "butter",
    "lemon juice",
    "turkey",
    "hummus",
    "bell peppers",
    "carrots",
    "mango",
    "curry powder",
    "coconut milk",
    "beef",
    "broccoli",
    "onions",
    "shrimp",
    "spinach",
    "herbs",
    "zucchini",
    "cauliflower",
    "sweet potato",
    "black beans",
    "cilantro",
    "Greek yogurt",
    "dill",
    "quinoa",
    "chickpeas",
    "romaine lettuce",
    "Caesar dressing",
    "Parmesan",
    "kidney beans",
    "corn",
    "chili seasoning",
    "asparagus",
    "mozzarella balls",
    "balsamic glaze",
    "fettuccine",
    "Alfredo sauce",
    "quinoa",
    "tomato sauce",
    "eggplant",
    "marinara sauce",
    "mozzarella cheese",
    "noodles",
    "Thai peanut sauce",
    "red bell peppers",
    "cabbage",
    "butternut squash",
    "nutmeg",
    "tofu",
    "pizza dough",
    "mozzarella cheese",
    "raspberries",
    "almond milk",
    "banana",
    "almond butter",
    "lentils",
    "thyme",
    "bay leaves",
    "parsley",
    "lemon wedges",
    "ghee",
    "cardamom",
    "fenugreek",
    "amchur (dry mango powder)",
    "rose water",
    "pomegranate molasses",
    "kaffir lime leaves",
    "galangal",
    "lemongrass",
    "furikake",
    "black garlic",
    "hemp seeds",
    "chia seeds",
    "açai berry",
    "maca powder",
    "spirulina",
    "cassava flour",
    "arrowroot powder",
    "seaweed",
    "escargot",
    "venison",
    "quail eggs",
    "duck fat",
    "morel mushrooms",
    "chanterelle mushrooms",
    "black truffle",
    "edible flowers",
    "salsify",
    "rutabaga",
    "celeriac",
    "finger limes",
)

# --- Tasks.org and OpenTracks (information retrieval) -----------------------------------------
# The parameter values below are those of ``information_retrieval/proto/tasks.textproto``. Its Tasks
# questions also draw the fifteen days of ``EVENTS_ON_DATE_DATES`` and the twenty times of
# ``EVENTS_ON_DATE_TIMES`` (the same lists as the calendar question's).

#: ``importance`` of ``TasksDueOnDate``.
TASKS_DUE_ON_DATE_IMPORTANCES: Final[tuple[str, ...]] = (
    "0",
    "0",
    "1",
    "1",
    "2",
    "2",
    "3",
    "3",
)

#: ``title`` of ``TasksDueOnDate`` and ``task_title`` of ``TasksHighPriorityTasks``.
TASKS_TITLES: Final[tuple[str, ...]] = (
    "Complete project proposal",
    "Review code changes",
    "Schedule team meeting",
    "Submit expense report",
    "Update website content",
    "Review quarterly goals",
    "Organize files and folders",
    "Draft marketing email",
    "Attend networking event",
    "Prepare presentation for meeting",
    "Call client for follow-up",
    "Research market trends",
    "Follow up on support tickets",
    "Prepare agenda for weekly meeting",
    "Book flights for conference",
    "Plan team outing",
    "Participate in brainstorming session",
    "Review performance metrics",
    "Attend training session",
    "Send report to manager",
)

#: ``notes`` of ``TasksDueOnDate`` and ``TasksHighPriorityTasks``.
TASKS_NOTES: Final[tuple[str, ...]] = (
    "Remember to complete this task.",
    "This task is important.",
    "Don't forget to follow up on this task.",
    "Double-check calculations.",
    "Confirm meeting location.",
    "Follow up with team members.",
    "Prepare presentation slides.",
    "Update project status.",
    "Check email for updates.",
    "Review feedback from client.",
    "Complete paperwork.",
    "Schedule follow-up meeting.",
)

#: ``due_date`` of ``TasksHighPriorityTasks`` and ``TasksDueNextWeek``.
TASKS_NEXT_WEEK_DATES: Final[tuple[str, ...]] = (
    "October 16 2023",
    "October 17 2023",
    "October 18 2023",
    "October 19 2023",
    "October 20 2023",
    "October 21 2023",
    "October 22 2023",
)

#: ``hide_until_date`` of ``TasksHighPriorityTasks``, ``completed_date`` of ``TasksCompletedTasksForDate``,
#: ``end_date`` of ``SportsTrackerTotalDistanceForCategoryOverInterval``.
TASKS_PAST_WEEK_DATES: Final[tuple[str, ...]] = (
    "October 10 2023",
    "October 11 2023",
    "October 12 2023",
    "October 13 2023",
    "October 14 2023",
    "October 15 2023",
)

#: ``time`` of ``TasksHighPriorityTasksDueOnDate``.
TASKS_HIGH_PRIORITY_TIMES: Final[tuple[str, ...]] = (
    "5:00pm",
    "12:00pm",
    "8:00am",
    "11:59pm",
    "2:00pm",
    "9:00am",
    "3:30pm",
    "10:00am",
    "4:45pm",
    "7:00pm",
)

#: ``title`` of ``TasksHighPriorityTasksDueOnDate``.
TASKS_HIGH_PRIORITY_TITLES: Final[tuple[str, ...]] = (
    "Project Milestone Review",
    "Submit Budget Report",
    "Proposal Draft Submission",
    "Team Sync-Up Meeting",
    "Client Feedback Session",
    "Code Review",
    "Marketing Campaign Launch",
    "Product Design Review",
    "Stakeholder Update Meeting",
    "Quarterly Sales Review",
)

#: ``title`` of ``TasksDueNextWeek``, ``TasksCompletedTasksForDate`` and ``TasksIncompleteTasksOnDate``: the twenty
#: above and five more.
TASKS_MORE_TITLES: Final[tuple[str, ...]] = (
    *TASKS_TITLES,
    "Dinner with friends",
    "Organize movie night",
    "Exercise session with coach",
    "Read book for book club",
    "Plan family reunion",
)

#: ``notes`` of ``TasksDueNextWeek``, ``TasksCompletedTasksForDate`` and ``TasksIncompleteTasksOnDate``.
TASKS_MORE_NOTES: Final[tuple[str, ...]] = (
    "This is high priority.",
    "This is urgent.",
    "Remember to review ahead of time.",
    "Double-check details.",
    "Schedule time on calendar.",
    "Follow up with others.",
    "Send emails to everyone.",
    "Send an update.",
    "Monitor email for updates on this.",
    "Check handwritten notes.",
    "Complete survey.",
    "Schedule follow-up tasks.",
)

#: ``date`` of ``TasksCompletedTasksForDate``.
TASKS_COMPLETED_FOR_DATES: Final[tuple[str, ...]] = (
    "October 10 2023",
    "October 11 2023",
    "October 12 2023",
    "October 13 2023",
    "October 14 2023",
    "October 15 2023",
    "October 16 2023",
    "October 17 2023",
    "October 18 2023",
    "October 19 2023",
    "October 20 2023",
)

#: ``date`` of ``SportsTrackerActivitiesOnDate``.
SPORTS_ON_DATE_DATES: Final[tuple[str, ...]] = (
    "October 12 2023",
    "October 13 2023",
    "October 11 2023",
    "October 10 2023",
    "October 9 2023",
    "October 8 2023",
    "October 7 2023",
    "October 6 2023",
    "October 5 2023",
    "October 4 2023",
    "October 3 2023",
    "October 2 2023",
    "October 1 2023",
    "September 30 2023",
    "September 29 2023",
    "September 28 2023",
    "September 27 2023",
    "September 26 2023",
    "September 25 2023",
    "September 24 2023",
)

#: ``category`` of every ``SportsTracker`` task.
SPORTS_CATEGORIES: Final[tuple[str, ...]] = (
    "running",
    "cycling",
    "swimming",
    "hiking",
    "mountain biking",
    "kayaking",
    "skiing",
    "snow boarding",
    "skate boarding",
    "climbing",
    "inline skating",
    "sailing",
)

#: ``duration`` of every ``SportsTracker`` task.
SPORTS_DURATIONS: Final[tuple[str, ...]] = (
    "15",
    "30",
    "45",
    "60",
    "90",
    "120",
    "40",
    "50",
    "75",
    "80",
    "20",
    "105",
    "135",
    "150",
    "165",
    "180",
    "210",
    "240",
    "270",
)

#: ``distance`` of every ``SportsTracker`` task.
SPORTS_DISTANCES: Final[tuple[str, ...]] = (
    "100",
    "300",
    "500",
    "800",
    "1000",
    "1200",
    "1500",
    "2000",
    "2500",
    "3000",
    "3500",
    "4000",
    "4500",
    "5000",
    "6000",
    "7000",
    "8000",
    "9000",
    "10000",
    "12000",
)

#: ``start_time`` of every ``SportsTracker`` task.
SPORTS_START_TIMES: Final[tuple[str, ...]] = (
    "8:00am",
    "10:30am",
    "5:00pm",
    "6:30am",
    "9:45am",
    "2:15pm",
    "7:00am",
    "11:00am",
    "4:00pm",
    "1:30pm",
    "5:45pm",
    "6:15am",
    "7:30am",
    "3:45pm",
    "10:15am",
    "2:45pm",
    "8:45am",
    "9:15am",
    "12:00pm",
    "5:30pm",
)

#: ``elevation`` of every ``SportsTracker`` task.
SPORTS_ELEVATIONS: Final[tuple[str, ...]] = (
    "50",
    "100",
    "250",
    "150",
    "75",
    "300",
    "200",
    "400",
    "350",
    "450",
    "550",
    "600",
    "800",
    "700",
    "900",
    "1000",
    "650",
    "1100",
    "1200",
    "850",
)

#: ``activity_name`` of every ``SportsTracker`` task.
SPORTS_NAMES: Final[tuple[str, ...]] = (
    "More tired than usual today",
    "Need more strength and conditioning",
    "Slow day",
    "Laps around the lake",
    "Trying and failing to keep up with John",
    "Quick outing",
    "Recovery day",
    "Active Rest Day",
    "Skill work",
    "Mindful Movement",
    "Outdoor Adventure",
    "Light Workout",
    "Intense day",
    "Quick Sweat",
    "Lunch Break Fitness",
)

#: ``activity_description`` of every ``SportsTracker`` task.
SPORTS_DESCRIPTIONS: Final[tuple[str, ...]] = (
    "Shared laughs and made memories with friends.",
    "Enjoyed a fun outing with good company.",
    "Had a blast with my favorite people.",
    "Created lasting memories that I'll cherish.",
    "Experienced something unforgettable.",
    "Captured moments that will bring a smile to my face.",
    "Wandered off the beaten path.",
    "Ventured into uncharted territory.",
    "Stepped outside my comfort zone.",
    "Pushed my boundaries and tried something different.",
    "Tested my limits and grew as a person.",
    "Pushed myself harder than I thought I could.",
    "Gained new knowledge and skills.",
    "Expanded my understanding of the world.",
    "Opened my mind to new perspectives.",
    "Enjoyed the warmth of the sunshine on my skin.",
    "Relaxed and recharged under the sun.",
    "Embraced the rain and got soaked.",
    "Found joy in the downpour.",
    "Faced the weather head-on and conquered it.",
    "Showed resilience in the face of adversity.",
)

#: ``start_date`` of ``SportsTrackerActivitiesCountForWeek``, ``SportsTrackerLongestDistanceActivity`` and
#: ``SportsTrackerTotalDurationForCategoryThisWeek``.
SPORTS_WEEK_DATES: Final[tuple[str, ...]] = (
    "October 9 2023",
    "October 10 2023",
    "October 11 2023",
    "October 12 2023",
    "October 13 2023",
    "October 14 2023",
    "October 15 2023",
)

#: ``date`` of ``SportsTrackerActivityDuration``.
SPORTS_DURATION_DATES: Final[tuple[str, ...]] = (
    "October 5 2023",
    "October 6 2023",
    "October 7 2023",
    "October 8 2023",
    "October 9 2023",
    "October 10 2023",
    "October 11 2023",
    "October 12 2023",
    "October 13 2023",
    "October 14 2023",
    "October 15 2023",
)

#: ``start_date`` of ``SportsTrackerTotalDistanceForCategoryOverInterval``.
SPORTS_INTERVAL_STARTS: Final[tuple[str, ...]] = (
    "October 1 2023",
    "October 2 2023",
    "October 3 2023",
    "October 4 2023",
    "October 5 2023",
    "October 6 2023",
    "October 7 2023",
    "October 8 2023",
    "October 9 2023",
)

#: The titles and notes of AndroidWorld's random tasks (``information_retrieval/task_app_utils._TASKS``).
TASK_NOISE: Final[dict[str, str]] = {
    "Grocery Shopping": "Don\t forget milk, eggs, and bread. Also need to pick up snacks for the kids.",
    "Finish Project Proposal": "Deadline is Friday. Need to finalize budget and timeline sections.",
    "Schedule Dentist Appointment": "Teeth cleaning overdue. Call Dr. Smith's office.",
    "Water Plants": "Check moisture level before watering. Fertilize succulents.",
    "Meal Prep for the Week": "Make a grocery list based on planned meals. Cook chicken and chop veggies on Sunday.",
    "Research Vacation Destinations": "Looking for beach destinations with family-friendly activities.",
    "Read 'The Martian'": "Started last week. Aim to finish by next weekend.",
    "Call Grandma": "Catch up on family news. Ask for her famous cookie recipe.",
    "Change Air Filter": "Last changed 3 months ago. Buy a new filter at the hardware store.",
    "Brainstorm Blog Post Ideas": "Need 5 new topics for the next month's content calendar.",
    "Renew Driver's License": "Expires next month. Check DMV website for requirements.",
    "Organize Closet": "Donate old clothes and shoes. Put winter clothes in storage.",
    "Submit Expense Report": "Deadline is Wednesday. Attach receipts for all purchases.",
    "Attend Team Meeting": "Agenda includes project updates and brainstorming new initiatives.",
    "Learn to Play Guitar": "Practice chords for 30 minutes every day. Find online tutorials.",
    "Reply to Emails": "Inbox is overflowing. Prioritize urgent messages and unsubscribe from unwanted lists.",
    "Clean Out Fridge": "Check expiration dates and discard old food. Wipe down shelves.",
    "Create Budget for Next Month": "Track income and expenses. Set savings goals.",
    "Back Up Computer Files": "Use external hard drive or cloud storage. Schedule regular backups.",
    "Take Dog to the Vet": "Annual checkup and vaccinations due.",
}

#: Names of AndroidWorld's random activities by category
#: (``information_retrieval/activity_app_utils._CATEGORY_TO_ACTIVITY_NAMES``).
ACTIVITY_NAMES: Final[dict[str, tuple[str, ...]]] = {
    "biking": (
        "Scenic Cycling",
        "Bike Tour",
        "Trail Ride",
        "Bicycle Adventure",
        "Pedal Excursion",
        "Cycle Trip",
        "Off-road Cycling",
        "Mountain Biking",
        "Road Cycling",
        "Bike Expedition",
    ),
    "running": (
        "Trail Run",
        "Road Run",
        "Jogging",
        "Running Adventure",
        "Sprint Session",
        "Trail Jog",
        "Long Distance Run",
        "Morning Run",
        "Evening Run",
        "Running Challenge",
    ),
    "hiking": (
        "Trail Hike",
        "Mountain Trek",
        "Hiking Excursion",
        "Nature Walk",
        "Outdoor Hike",
        "Scenic Hike",
        "Mountain Hike",
        "Wilderness Hike",
        "Hill Walk",
        "Nature Hike",
    ),
    "swimming": (
        "Pool Swim",
        "Open Water Swim",
        "Swim Workout",
        "Swim Session",
        "Swimming Adventure",
        "Lap Swim",
        "Swim Training",
        "Water Exercise",
        "Swimming Excursion",
        "Swim Challenge",
    ),
    "walking": (
        "Neighborhood Walk",
        "Evening Stroll",
        "Morning Walk",
        "Urban Walk",
        "Nature Walk",
        "City Stroll",
        "Trail Walk",
        "Casual Walk",
        "Power Walk",
        "Brisk Walk",
    ),
    "skiing": (
        "Ski Trip",
        "Slope Session",
        "Alpine Skiing",
        "Downhill Skiing",
        "Cross-country Skiing",
        "Backcountry Skiing",
        "Powder Day",
        "Snow Adventure",
        "Winter Skiing",
        "Ski Expedition",
    ),
    "snowboarding": (
        "Snowboard Trip",
        "Freestyle Session",
        "Slope Riding",
        "Snowboard Adventure",
        "Snowboarding Excursion",
        "Powder Ride",
        "Mountain Snowboarding",
        "Backcountry Snowboarding",
        "Snowboard Challenge",
        "Snowboard Trek",
    ),
    "kayaking": (
        "Kayak Tour",
        "Paddling Adventure",
        "Kayak Excursion",
        "River Paddle",
        "Lake Kayaking",
        "Sea Kayaking",
        "Kayak Expedition",
        "Waterway Paddle",
        "Kayak Journey",
        "Paddle Outing",
    ),
    "rowing": (
        "Rowing Adventure",
        "Crew Session",
        "Lake Rowing",
        "River Rowing",
        "Rowing Excursion",
        "Rowing Challenge",
        "Rowing Workout",
        "Rowing Trek",
        "Rowing Expedition",
        "Sculling Session",
    ),
    "sailing": (
        "Sailing Trip",
        "Sailing Adventure",
        "Sailboat Ride",
        "Boat Tour",
        "Yacht Sailing",
        "Sailing Excursion",
        "Nautical Adventure",
        "Sailing Expedition",
        "Windward Sailing",
        "Sailboat Expedition",
    ),
    "skateboarding": (
        "Skateboard Session",
        "Urban Skate",
        "Skatepark Session",
        "Skateboard Adventure",
        "Street Skateboarding",
        "Skateboarding Excursion",
        "Skateboard Trek",
        "Skateboard Ride",
        "Skateboard Challenge",
        "Skateboard Exploration",
    ),
    "surfing": (
        "Surf Session",
        "Beach Surfing",
        "Wave Riding",
        "Surfing Adventure",
        "Surfing Excursion",
        "Surfboard Session",
        "Surfing Challenge",
        "Surf Trek",
        "Surfing Expedition",
        "Wave Exploration",
    ),
    "climbing": (
        "Rock Climbing",
        "Indoor Climbing",
        "Bouldering",
        "Climbing Adventure",
        "Climbing Excursion",
        "Crag Climbing",
        "Mountain Climbing",
        "Rock Climbing Challenge",
        "Climbing Session",
        "Climbing Expedition",
    ),
    "mountain biking": (
        "Mountain Bike Ride",
        "Trail Biking",
        "MTB Adventure",
        "Mountain Biking Excursion",
        "Off-road Biking",
        "Dirt Biking",
        "Mountain Bike Expedition",
        "Singletrack Session",
        "MTB Trek",
        "Trail Riding",
    ),
    "road biking": (
        "Road Bike Ride",
        "Cycling Adventure",
        "Road Cycling",
        "Long Distance Ride",
        "Bike Touring",
        "Road Bike Session",
        "Countryside Cycling",
        "City Cycling",
        "Bike Commute",
        "Road Riding",
    ),
    "trail running": (
        "Trail Run",
        "Off-road Running",
        "Trail Jog",
        "Trail Running Adventure",
        "Trail Run Session",
        "Trail Running Challenge",
        "Long Distance Trail Run",
        "Trail Run Expedition",
        "Trail Running Trek",
        "Off-road Run",
    ),
    "trail hiking": (
        "Trail Hike",
        "Hiking Adventure",
        "Nature Hike",
        "Mountain Trail Hike",
        "Scenic Hiking",
        "Trail Trek",
        "Trail Walking",
        "Off-road Hike",
        "Trail Hiking Excursion",
        "Hiking Expedition",
    ),
    "cycling": (
        "Scenic Cycling",
        "Bike Tour",
        "Trail Ride",
        "Bicycle Adventure",
        "Pedal Excursion",
        "Cycle Trip",
        "Off-road Cycling",
        "Mountain Biking",
        "Road Cycling",
        "Bike Expedition",
    ),
    "paddling": (
        "Boat Tour",
        "Paddle Adventure",
        "River Paddle",
        "Lake Paddling",
        "Sea Paddling",
        "Boating Expedition",
        "Waterway Paddle",
        "Paddle Journey",
        "Paddle Outing",
        "Canoeing Adventure",
    ),
}

_QUESTION_TITLES: Final[tuple[str, ...]] = (
    "Team Meeting",
    "1-on-1 with Manager",
    "Product demo",
    "Team lunch",
    "Coffee with CEO",
    "Quarterly review",
    "Scrum meeting",
    "Doctor's appointment",
    "Birthday party",
    "Coding challenge",
    "Board meeting",
    "Marketing strategy workshop",
    "Movie night",
    "Dinner with friends",
    "Concert",
    "Game night",
    "Date night",
    "Weekend trip",
    "Family reunion",
    "Volunteer cleanup",
    "Sports game",
)
_QUESTION_PERSONS: Final[tuple[str, ...]] = (
    "Amanda",
    "John",
    "David",
    "Lucas",
    "James",
    "Ava",
    "Isabella",
    "Mia",
    "Elijah",
    "Charlotte",
    "Emily",
    "Muhammad",
    "Sofia",
    "Mateo",
    "Aaliyah",
    "Isabella",
    "Daniel",
    "Mia",
)
#: The task parameters of Simple Calendar's other information-retrieval questions (``tasks.textproto``:
#: each task's ``task_params``, in its order, drawn one value each).
CALENDAR_QUESTION_PARAMS: Final[dict[str, dict[str, tuple[str, ...]]]] = {
    "SimpleCalendarNextEvent": {
        "time": (
            "3:53pm",
            "21:45",
            "5pm",
            "17:30",
            "16:00",
            "18:30",
            "18:45",
            "7pm",
            "7:15pm",
            "21:45",
            "8pm",
            "8:10pm",
            "12:00am",
            "5:20pm",
            "23:59",
            "4:00pm",
            "16:15",
            "9:15pm",
            "20:40",
            "22:35",
        ),
        "duration": EVENTS_ON_DATE_DURATIONS,
        "title": _QUESTION_TITLES,
    },
    "SimpleCalendarEventOnDateAtTime": {
        "date": LOCATION_OF_EVENT_DATES,
        "time": EVENTS_ON_DATE_TIMES,
        "duration": EVENTS_ON_DATE_DURATIONS,
        "title": _QUESTION_TITLES,
    },
    "SimpleCalendarAnyEventsOnDate": {
        "date": LOCATION_OF_EVENT_DATES,
        "title": _QUESTION_TITLES,
        "time": EVENTS_ON_DATE_TIMES,
    },
    "SimpleCalendarNextMeetingWithPerson": {
        "person": _QUESTION_PERSONS,
        "date": LOCATION_OF_EVENT_DATES,
        "time": LOCATION_OF_EVENT_TIMES,
    },
    "SimpleCalendarEventsInNextWeek": {
        "date": (
            "October 16 2023",
            "October 17 2023",
            "October 18 2023",
            "October 19 2023",
            "October 20 2023",
            "October 21 2023",
            "October 22 2023",
        ),
        "duration": EVENTS_ON_DATE_DURATIONS,
        "title": (
            "Product demo",
            "Team lunch",
            "Coffee with CEO",
            "Quarterly review",
            "Scrum meeting",
            "Doctor's appointment",
            "Birthday party",
            "Coding challenge",
            "Board meeting",
            "Marketing strategy workshop",
            "Meet with {person}",
            "Movie night",
            "Dinner with friends",
            "Concert",
            "Game night",
            "Date night",
            "Weekend trip",
            "Family reunion",
            "Volunteer cleanup",
            "Sports game",
        ),
        "person": _QUESTION_PERSONS,
        "time": (
            "11:00am",
            "1:30pm",
            "9:45am",
            "21:45",
            "10:00am",
            "3:15pm",
            "12:00pm",
            "6:30am",
            "8pm",
            "12:00am",
            "5:20pm",
            "23:59",
            "7:45am",
            "4pm",
            "10:30am",
            "16:15",
            "2:45am",
            "9:15pm",
            "11:30am",
            "20:00",
        ),
    },
    "SimpleCalendarFirstEventAfterStartTime": {
        "date": LOCATION_OF_EVENT_DATES,
        "title": (
            "Sales Call",
            "Client Meeting",
            "Training Session",
            "Project Kickoff",
            "Team Brainstorming",
            "Dentist Appointment",
            "Haircut",
            "Grocery Shopping",
            "School Pickup",
            "Soccer Practice",
        ),
        "time": (
            "18:05",
            "11:00am",
            "1:30pm",
            "9:45am",
            "10:00am",
            "3:15pm",
            "12pm",
            "6:30am",
            "8:00pm",
            "5:20pm",
            "7:45am",
            "4pm",
            "10:30am",
            "16:15",
            "9:15pm",
            "11:30am",
            "20:00",
        ),
        "duration": EVENTS_ON_DATE_DURATIONS,
    },
    "SimpleCalendarEventsInTimeRange": {
        "start_time": (
            "11:00am",
            "1:30pm",
            "9:45am",
            "10:00am",
            "3:15pm",
            "12pm",
            "6:30am",
            "5:20pm",
            "7:45am",
            "4pm",
            "10:30am",
            "4:15pm",
            "11:30am",
        ),
        "date": LOCATION_OF_EVENT_DATES,
        "title": (
            "Gym",
            "Dinner with Friends",
            "Happy Hour",
            "Evening Walk",
            "Yoga Class",
            "Run in the Park",
            "Cooking Class",
            "Movie Night",
            "Grocery Shopping",
            "Pick up Kids from School",
        ),
        "duration": EVENTS_ON_DATE_DURATIONS,
    },
}
